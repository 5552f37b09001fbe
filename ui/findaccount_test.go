package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// The accounts list holds only those the access may operate, so a name
// missing from it may well exist (a sub-account the access is blacklisted
// from): the error must not claim there is no such account at all.
func TestFindAccountUnknownNameSaysAmongOperableAccounts(t *testing.T) {
	accounts := []api.Account{
		{ID: uuid.New(), Name: "Acme Treasury Ltda"},
		{ID: uuid.New(), Name: "Acme Payments", MainAccountID: "x"},
	}
	_, err := findAccount(accounts, "Acme Sul")
	if err == nil {
		t.Fatal("an unlisted name was resolved")
	}
	for _, want := range []string{`"Acme Sul"`, "among those this access may operate", "press S"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if acc, err := findAccount(accounts, "acme payments"); err != nil || acc.Name != "Acme Payments" {
		t.Errorf("exact name (any case) not found: %+v, %v", acc, err)
	}
}

// A service whose sub-accounts list hides what the access is barred from
// (issue 27): the access-info still names the barred sub-account's id,
// which the switcher shows, disabled, under that id.
func TestBarredSubAccountsKnownOnlyByIDAreShownDisabled(t *testing.T) {
	f := newFake()
	f.hideBarred = true
	s := &Session{Access: f.access}
	listed := must(f.ListAccounts(context.Background()))
	got := withBlacklisted(barredAccounts(context.Background(), f, listed), listed, s)
	if len(got) != 1 || got[0].ID != banID || got[0].Name != banID.String() {
		t.Fatalf("barred %+v, want %s by id alone", got, banID)
	}
	f.hideBarred = false
	got = withBlacklisted(barredAccounts(context.Background(), f, listed), listed, s)
	if len(got) != 1 || got[0].Name != "Banned Branch" {
		t.Fatalf("barred %+v, want Banned Branch once, by name", got)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
