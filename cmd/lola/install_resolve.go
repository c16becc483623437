package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/market"
	"github.com/lola-pm/lola/host/modsource"
	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/rejection"
)

// installResolve turns the MODULE argument (NAME, NAME@REF, @MARKET/NAME,
// @MARKET/NAME@REF) into a store name, fetching through host/market when
// the argument asks for it or the module is only in a marketplace. A dry
// run fetches nothing.
func installResolve(cmd *cobra.Command, ctx context.Context, o install.Options, dryRun bool) (string, error) {
	sp := market.ParseSpec(o.Module)
	store, err := module.OpenStore(o.Home)
	if err != nil {
		return "", withCode(exitInternal, err)
	}
	if sp.Market == "" && sp.Ref == "" {
		if n, err := module.ParseName(sp.Module); err != nil || func() bool { _, err := store.Get(n); return err == nil }() {
			return sp.Module, nil // in the store, or a bad name install reports
		}
	}
	if dryRun {
		if sp.Market != "" || sp.Ref != "" {
			return "", withCode(exitUsage, errors.New("--dry-run fetches nothing: install @MARKET/MODULE or MODULE@REF without it, or lola mod add the module first"))
		}
		return sp.Module, nil
	}
	reg, err := marketRegistry()
	if err != nil {
		return "", err
	}
	res, err := reg.Resolve(ctx, store, o.Home, sp, o.Remote)
	switch {
	case err == nil:
	case len(rejection.All(err)) > 0:
		return "", withCode(exitRejected, err)
	case errors.Is(err, market.ErrNotFound), errors.Is(err, market.ErrNoModule), errors.Is(err, module.ErrNotFound):
		return "", withCode(exitInternal, fmt.Errorf("%w (not found)", err))
	case errors.Is(err, market.ErrAmbiguous), errors.Is(err, market.ErrOtherSource), errors.Is(err, module.ErrName),
		errors.Is(err, modsource.ErrNotGit), errors.Is(err, modsource.ErrNoRecord):
		return "", withCode(exitUsage, err)
	default:
		return "", modExit(err)
	}
	if res.Fetched != nil {
		what := "fetched " + res.Module
		if res.From != "" {
			what += " from " + res.From
		}
		if c := commitOf(res.Fetched); c != "" {
			what += " at " + c
		}
		fmt.Fprintln(cmd.ErrOrStderr(), "lola: "+what)
	}
	return res.Module, nil
}
