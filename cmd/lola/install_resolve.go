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

// installResolve turns o.Module (NAME, NAME@REF, @MARKET/NAME,
// @MARKET/NAME@REF) into a store name, fetching through host/market when
// the argument asks for it or the module is only in a marketplace, and
// sets what the install records and runs from that: the catalog version,
// the ref, the catalog entry's hooks. A dry run fetches nothing.
func installResolve(cmd *cobra.Command, ctx context.Context, o *install.Options, dryRun bool) error {
	res, err := installResolveModule(cmd, ctx, *o, dryRun)
	if err != nil {
		return err
	}
	o.Module, o.Ref = res.Module, res.Ref
	if e := res.Entry; e != nil {
		o.Version = e.Version
		if e.Hooks != nil {
			o.CatalogPreInstall, o.CatalogPostInstall = e.Hooks.PreInstall, e.Hooks.PostInstall
		}
	}
	return nil
}

func installResolveModule(cmd *cobra.Command, ctx context.Context, o install.Options, dryRun bool) (market.Resolved, error) {
	sp := market.ParseSpec(o.Module)
	store, err := module.OpenStore(o.Home)
	if err != nil {
		return market.Resolved{}, withCode(exitInternal, err)
	}
	if sp.Market == "" && sp.Ref == "" {
		if n, err := module.ParseName(sp.Module); err != nil || func() bool { _, err := store.Get(n); return err == nil }() {
			return market.Resolved{Module: sp.Module}, nil // in the store, or a bad name install reports
		}
	}
	if dryRun {
		if sp.Market != "" || sp.Ref != "" {
			return market.Resolved{}, withCode(exitUsage, errors.New("--dry-run fetches nothing: install @MARKET/MODULE or MODULE@REF without it, or lola mod add the module first"))
		}
		return market.Resolved{Module: sp.Module}, nil
	}
	reg, err := marketRegistry()
	if err != nil {
		return market.Resolved{}, err
	}
	res, err := reg.Resolve(ctx, store, o.Home, sp, o.Remote)
	switch {
	case err == nil:
	case len(rejection.All(err)) > 0:
		return market.Resolved{}, withCode(exitRejected, err)
	case errors.Is(err, market.ErrNotFound), errors.Is(err, market.ErrNoModule), errors.Is(err, module.ErrNotFound):
		return market.Resolved{}, withCode(exitInternal, fmt.Errorf("%w (not found)", err))
	case errors.Is(err, market.ErrAmbiguous), errors.Is(err, market.ErrOtherSource), errors.Is(err, module.ErrName), errors.Is(err, market.ErrNotGit),
		errors.Is(err, modsource.ErrNotGit), errors.Is(err, modsource.ErrNoRecord):
		return market.Resolved{}, withCode(exitUsage, err)
	default:
		return market.Resolved{}, modExit(err)
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
	return res, nil
}
