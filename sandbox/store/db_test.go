package store

import (
	"context"
	"testing"
)

// The in-memory database grows as far as the machine's memory, not to
// memdb's default of 1 GiB (about 200,000 tickets), where a refused write
// would stop the sandbox: SQLite took the raised limit at load, before its
// first connection, after which it takes no such setting.
func TestInMemoryDatabaseIsNotCappedAtMemdbDefault(t *testing.T) {
	if memdbLimitErr != nil {
		t.Fatalf("the in-memory database keeps memdb's 1 GiB limit: %v", memdbLimitErr)
	}
	db, err := openDatabase(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.close()
	if err := raiseMemdbLimit(); err == nil {
		t.Fatal("SQLite took the setting after a connection: a setting made at load would prove nothing")
	}
}
