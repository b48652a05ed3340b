package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os/user"
	"text/tabwriter"
	"time"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/live"
)

// runKeys is aisle keys create|list|revoke: API keys of a data
// directory no server has open. A running server's keys are managed
// through its GraphQL API (createApiKey, apiKeys, revokeApiKey).
func runKeys(_ context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, keysUsage)
		return flag.ErrHelp
	}
	sub := args[0]
	fs := flag.NewFlagSet("keys "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", env("AISLE_DATA", ""), "the pebble data `DIR` (of a stopped server)")
	name := fs.String("name", "", "create: the key's `NAME`, as the audit log records who acted")
	scopes := fs.String("scopes", "admin", "create: comma-separated `SCOPES`: admin, search, audit, analytics")
	website := fs.String("website", "", "create: the `UUID` of the one website the key covers")
	company := fs.String("company", "", "create: the `ID` of the company whose websites the key covers (neither --website nor --company: every website)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *data == "" {
		return errors.New("keys needs --data DIR")
	}
	st, err := openStore(*data, log)
	if err != nil {
		return err
	}
	defer st.Close()
	by := live.Actor{Name: "aisle keys " + sub + " (" + osUser() + ")", Session: live.Session(nil), Events: []string{"aisle keys " + sub}}
	switch sub {
	case "create":
		sc, err := access.ParseScopes(*scopes)
		if err != nil {
			return err
		}
		k, secret, err := live.CreateStoredKey(st, access.Spec{Name: *name, Scopes: sc, Website: *website, Company: *company}, by)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "API key %s (%s) made, scopes %v, covering %s.\nIts secret, shown this once:\n%s\n", k.ID, k.Name, k.Scopes, reach(k), secret)
		return nil
	case "list":
		keys, err := st.Keys()
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tSCOPES\tCOVERS\tCREATED")
		for _, k := range access.NewRing(keys).Keys() {
			fmt.Fprintf(tw, "%s\t%s\t%v\t%s\t%s\n", k.ID, k.Name, k.Scopes, reach(k), k.Created.Format(time.RFC3339))
		}
		return tw.Flush()
	case "revoke":
		if fs.NArg() != 1 {
			return errors.New("keys revoke needs the key's ID")
		}
		k, err := live.RevokeStoredKey(st, fs.Arg(0), by)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "API key %s (%s) revoked.\n", k.ID, k.Name)
		return nil
	}
	fmt.Fprint(stderr, keysUsage)
	return fmt.Errorf("unknown keys command %q", sub)
}

const keysUsage = `Usage:
  aisle keys create --data DIR --name NAME [--scopes admin,search,audit,analytics] [--website UUID | --company ID]
  aisle keys list   --data DIR
  aisle keys revoke --data DIR ID
`

// reach says what a key covers.
func reach(k *access.Key) string {
	switch {
	case k.Website != "":
		return "website " + k.Website
	case k.Company != "":
		return "company " + k.Company
	}
	return "every website"
}

// osUser is the name of who runs the command, for the audit log.
func osUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown user"
}
