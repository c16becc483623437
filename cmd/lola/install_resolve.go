package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/market"
	"github.com/lola-pm/lola/host/module"
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
		return market.Resolved{}, exitcode.Wrap(exitcode.Internal, err)
	}
	if sp.Market == "" && sp.Ref == "" {
		if n, err := module.ParseName(sp.Module); err != nil || func() bool { _, err := store.Get(n); return err == nil }() {
			return market.Resolved{Module: sp.Module}, nil // in the store, or a bad name install reports
		}
	}
	if dryRun {
		if sp.Market != "" || sp.Ref != "" {
			return market.Resolved{}, exitcode.Wrap(exitcode.Usage, errors.New("--dry-run fetches nothing: install @MARKET/MODULE or MODULE@REF without it, or lola mod add the module first"))
		}
		return market.Resolved{Module: sp.Module}, nil
	}
	reg, err := marketRegistry()
	if err != nil {
		return market.Resolved{}, err
	}
	res, err := reg.Resolve(ctx, store, o.Home, sp, o.Remote)
	if err != nil {
		code := exitcode.ForResolve(err)
		if errors.Is(err, market.ErrNotFound) || errors.Is(err, market.ErrNoModule) || errors.Is(err, module.ErrNotFound) {
			err = fmt.Errorf("%w (not found)", err)
		}
		return market.Resolved{}, exitcode.Wrap(code, err)
	}
	if res.Fetched != nil {
		what := "fetched " + shown(res.Module)
		if res.From != "" {
			what += " from " + shownText(res.From)
		}
		if c := commitOf(res.Fetched); c != "" {
			what += " at " + c
		}
		fmt.Fprintln(cmd.ErrOrStderr(), "lola: "+what)
	}
	return res, nil
}
