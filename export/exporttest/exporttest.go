// Package exporttest reads back what the export package wrote, for the
// tests of the dashboard, the command line and the end-to-end journeys.
package exporttest

import (
	"encoding/csv"
	"os"
	"testing"
)

// Read reads the CSV file at path whole, as a spreadsheet would, and fails
// the test when the file cannot be opened or is not valid CSV.
func Read(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s is not valid CSV: %v", path, err)
	}
	return recs
}
