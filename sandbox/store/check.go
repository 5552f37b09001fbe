package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// checkDatabase validates a database before it is served and reports
// whether it is still empty (never seeded). Every refusal names the
// problem: the file may have been edited by hand with sqlite3.
//
// The named checks cost little whatever the number of tickets: the seed,
// the one main account, sane settings, and each balance against the last
// move of its ledger, whose rows chain balance_after (a move is refused by
// a CHECK if it leaves a negative balance). With whole, every row is read
// as well (wholeFileCheck). The full sum of the ledger is checked by
// consistencyErrors, which the crash test runs.
func checkDatabase(ctx context.Context, db *sql.DB, seed int64, whole bool) (empty bool, err error) {
	v, ok, err := metaValue(ctx, db, "seed")
	if err != nil {
		return false, err
	}
	var accounts int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM accounts").Scan(&accounts); err != nil {
		return false, err
	}
	if !ok {
		if accounts > 0 {
			return false, errors.New("accounts are stored but the seed is not (meta.seed)")
		}
		return true, nil
	}
	if v != strconv.FormatInt(seed, 10) {
		return false, fmt.Errorf("it was made with --seed %s; start with that seed or name another path", v)
	}
	accts, err := accountProblems(ctx, db)
	if err != nil {
		return false, err
	}
	bals, err := balanceProblems(ctx, db)
	if err != nil {
		return false, err
	}
	if problems := append(accts, bals...); len(problems) > 0 {
		return false, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	if whole {
		return false, wholeFileCheck(ctx, db)
	}
	return false, nil
}

// wholeFileCheck reads every row: foreign keys, then the file's structure,
// NOT NULL and CHECK constraints (quick_check). It costs about a second
// per few hundred megabytes.
func wholeFileCheck(ctx context.Context, db *sql.DB) error {
	var problems []string
	rows, err := db.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return err
	}
	for rows.Next() && len(problems) < 5 {
		var table, parent string
		var rowid sql.NullInt64
		var fk int
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			rows.Close()
			return err
		}
		problems = append(problems, fmt.Sprintf("a row of %s (rowid %d) refers to a missing %s", table, rowid.Int64, parent))
	}
	rows.Close()
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	var res string
	if err := db.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return fmt.Errorf("the file is damaged or breaks a constraint (quick_check: %s)", res)
	}
	return nil
}

// syncCheckLimit is the largest database checked whole before serving;
// a larger one is checked whole in the background right after start (and
// the sandbox stops serving if that fails), so that start-up stays under
// a second at a million tickets.
const syncCheckLimit = 256 << 20

func databaseSize(ctx context.Context, db *sql.DB) (int64, error) {
	var pages, size int64
	if err := db.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		return 0, err
	}
	if err := db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&size); err != nil {
		return 0, err
	}
	return pages * size, nil
}

func decimalEqual(s string, d decimal.Decimal) bool {
	v, err := decimal.NewFromString(s)
	return err == nil && v.Equal(d)
}

// consistencyErrors checks, over the whole ledger, that every balance is
// the sum of its moves and that each move's balance_after is the running
// sum. It reads every move: a test and tool check, not a start-up one.
func consistencyErrors(ctx context.Context, db *sql.DB) ([]string, error) {
	type key struct{ acct, cur string }
	sums := map[key]decimal.Decimal{}
	var problems []string
	err := eachRow(ctx, db, "SELECT id, account_id, currency, amount, balance_after FROM ledger ORDER BY id", func(r *sql.Rows) error {
		var id int64
		var acct, cur, amount, after string
		if err := r.Scan(&id, &acct, &cur, &amount, &after); err != nil {
			return err
		}
		d, err := decimal.NewFromString(amount)
		if err != nil {
			return fmt.Errorf("move %d: amount %q", id, amount)
		}
		k := key{acct, cur}
		sums[k] = sums[k].Add(d)
		if !decimalEqual(after, sums[k]) && len(problems) < 10 {
			problems = append(problems, fmt.Sprintf("move %d: balance_after %s, running sum %s", id, after, sums[k]))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(ctx, db, "SELECT account_id, currency, amount FROM balances", func(r *sql.Rows) error {
		var acct, cur, amount string
		if err := r.Scan(&acct, &cur, &amount); err != nil {
			return err
		}
		k := key{acct, cur}
		if !decimalEqual(amount, sums[k]) {
			problems = append(problems, fmt.Sprintf("account %s %s: balance %s, sum of moves %s", acct, cur, amount, sums[k]))
		}
		delete(sums, k)
		return nil
	})
	for k, v := range sums {
		if !v.IsZero() {
			problems = append(problems, fmt.Sprintf("account %s %s: moves sum to %s but no balance is stored", k.acct, k.cur, v))
		}
	}
	return problems, err
}

// accountProblems checks the accounts and the settings they share: one
// main account, every sub-account under it, a usable approval threshold.
func accountProblems(ctx context.Context, db *sql.DB) ([]string, error) {
	var problems []string
	var mains int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM accounts WHERE is_main = 1").Scan(&mains); err != nil {
		return nil, err
	}
	if mains != 1 {
		problems = append(problems, fmt.Sprintf("it has %d main accounts; exactly one is needed", mains))
	}
	var strays int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM accounts WHERE is_main = 0 AND main_id NOT IN (SELECT id FROM accounts WHERE is_main = 1)").Scan(&strays); err != nil {
		return nil, err
	}
	if strays > 0 {
		problems = append(problems, fmt.Sprintf("%d sub-accounts belong to no main account", strays))
	}
	if v, ok, err := metaValue(ctx, db, "min_approvals"); err != nil {
		return nil, err
	} else if n, perr := strconv.Atoi(v); ok && (perr != nil || n < 1) {
		problems = append(problems, fmt.Sprintf("minApprovals is %q; it must be a whole number of at least 1", v))
	}
	return problems, nil
}

// balanceProblems checks the balances: non-negative exact decimals, equal
// to their ledger.
func balanceProblems(ctx context.Context, db *sql.DB) ([]string, error) {
	var problems []string
	brows, err := db.QueryContext(ctx, `SELECT b.account_id, b.currency, b.amount,
		(SELECT l.balance_after FROM ledger l WHERE l.account_id = b.account_id AND l.currency = b.currency ORDER BY l.id DESC LIMIT 1)
		FROM balances b`)
	if err != nil {
		return nil, err
	}
	defer brows.Close()
	for brows.Next() {
		var acct, cur, amount string
		var last sql.NullString
		if err := brows.Scan(&acct, &cur, &amount, &last); err != nil {
			return nil, err
		}
		d, err := decimal.NewFromString(amount)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("the %s balance of account %s is not a number (%q)", cur, acct, amount))
		case d.IsNegative():
			problems = append(problems, fmt.Sprintf("the %s balance of account %s is negative (%s)", cur, acct, amount))
		case !last.Valid && !d.IsZero():
			problems = append(problems, fmt.Sprintf("the %s balance of account %s (%s) has no ledger moves", cur, acct, amount))
		case last.Valid && !decimalEqual(last.String, d):
			problems = append(problems, fmt.Sprintf("the %s balance of account %s (%s) differs from its ledger (%s)", cur, acct, amount, last.String))
		}
	}
	return problems, nil
}
