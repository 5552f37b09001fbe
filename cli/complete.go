package cli

import (
	"maps"
	"slices"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

// Flag values the shell completes: every flag that takes one of a known
// set of values offers that set, never file names.

// ticketStatuses are the states a ticket can be in (README, Decisions).
var ticketStatuses = []string{string(api.TicketUnpaid), string(api.TicketPending), string(api.TicketOnHold), string(api.TicketProcessing),
	string(api.TicketPaid), string(api.TicketFailed), string(api.TicketPartialFailed), string(api.TicketCanceled)}

// fixed completes a flag with values.
func fixed(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
}

// noFiles is the completion of a flag whose value is free text.
func noFiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// allMethods are the payment methods of every currency, sorted.
func allMethods() []string {
	set := map[string]bool{}
	for _, c := range money.Currencies() {
		for _, m := range money.Methods(c) {
			set[m] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// methodsOf completes a method flag with the methods of the currency the
// currency flag names, or every method when it names none.
func methodsOf(currencyFlag string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		if fl := cmd.Flags().Lookup(currencyFlag); fl != nil && fl.Value.String() != "" {
			if ms := money.Methods(money.Canonical(fl.Value.String())); len(ms) > 0 {
				return ms, cobra.ShellCompDirectiveNoFileComp
			}
		}
		return allMethods(), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeFlags registers the completion of every flag of the tree that
// takes a value from a known set (currencies, methods, statuses, formats,
// kinds, chains, environments...) or free text; file flags keep the
// shell's file completion.
func completeFlags(c *cobra.Command) {
	currencies := fixed(money.Currencies()...)
	byName := map[string]func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective){
		"format":          fixed("table", "csv", "json"),
		"status":          fixed(ticketStatuses...),
		"from":            currencies,
		"to":              currencies,
		"input-currency":  currencies,
		"output-currency": currencies,
		"from-method":     methodsOf("from"),
		"to-method":       methodsOf("to"),
		"input-method":    methodsOf("input-currency"),
		"output-method":   methodsOf("output-currency"),
		"send-method":     fixed(api.SendPermit, api.SendTransfer),
		"payment-rail":    fixed("ACH", "WIRE"),
		"chain":           fixed(money.Chains()...),
		"env":             fixed("sandbox", "production"),
		"bits":            fixed("2048", "4096"),
		"currency":        fixed(money.BalanceTokens()...),
	}
	for _, name := range []string{"since", "until", "amount", "output-amount", "external-id", "end-to-end-id", "alias", "jq",
		"watch", "timeout", "limit", "reference", "pix-key", "to-address", "wallet-address", "address", "memo", "beneficiary",
		"email", "name", "tax-id", "description", "event", "signature", "batch", "concurrency", "addr", "seed", "speed", "faults",
		"base-url", "raw-field", "field", "forward-to", "otp", "ip", "new-profile"} {
		byName[name] = noFiles
	}
	for _, sub := range c.Commands() {
		completeFlags(sub)
		fs := sub.LocalNonPersistentFlags()
		for name, fn := range byName {
			if fs.Lookup(name) == nil {
				continue
			}
			if name == "to" && sub.Name() == "transfer" {
				// An account there, not a currency.
				fn = noFiles
			}
			_ = sub.RegisterFlagCompletionFunc(name, fn)
		}
		if fs.Lookup("kind") != nil && sub.Parent().Name() == "beneficiaries" {
			kinds := beneficiaryKinds
			if sub.Name() == "add" {
				kinds = []string{"wallet", "brl"}
			}
			_ = sub.RegisterFlagCompletionFunc("kind", fixed(kinds...))
		}
	}
}
