package listing

import (
	"strings"
	"testing"
	"time"
)

func TestCreatedCoversWholeLocalDays(t *testing.T) {
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	after, before, err := Created("2026-03-01", "2026-03-01", sp)
	if err != nil {
		t.Fatal(err)
	}
	if !after.Equal(time.Date(2026, 3, 1, 3, 0, 0, 0, time.UTC)) || !before.Equal(time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC)) {
		t.Fatalf("one local day maps to %s – %s", after.UTC(), before.UTC())
	}
	if after, before, err := Created("", "", sp); err != nil || !after.IsZero() || !before.IsZero() {
		t.Fatalf("no dates typed, but %s – %s (%v)", after, before, err)
	}
	if _, _, err := Created("2026-03-02", "2026-03-01", sp); err == nil || !strings.Contains(err.Error(), "the range is empty") {
		t.Fatalf("a reversed range gave %v", err)
	}
}

func TestCheckCreatedReadsTheFormsDates(t *testing.T) {
	form := map[string]string{FromKey: "2026-03-10", ToKey: "2026-03-01"}
	check := CheckCreated(func() *time.Location { return time.UTC })
	if err := check(func(k string) string { return form[k] }); err == nil {
		t.Fatal("an empty range passed the check")
	}
	form[ToKey] = "2026-03-10"
	if err := check(func(k string) string { return form[k] }); err != nil {
		t.Fatalf("a one-day range failed the check: %v", err)
	}
}

func TestNormDate(t *testing.T) {
	if got, err := NormDate(" 2026-08-01 "); err != nil || got != "2026-08-01" {
		t.Fatalf("NormDate: %q, %v", got, err)
	}
	if _, err := NormDate("yesterday-ish"); err == nil {
		t.Fatal("not a date, but accepted")
	}
}
