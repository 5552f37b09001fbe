package store

import "database/sql"

// The rows of team administration: accesses as changed since the seed
// made them, API keys, second factors and sign-ups, each one JSON
// document of a kind and id. The caller holds the lock for writing.

// PutTeamRecord stores (or replaces) the document of kind and id.
func (s *Store) PutTeamRecord(kind, id string, body []byte) {
	s.exec("INSERT INTO team_records (kind, id, body) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body",
		kind, id, string(body))
}

// EachTeamRecord reads every team document, ordered by kind then id.
func (s *Store) EachTeamRecord(f func(kind, id string, body []byte) error) error {
	return s.eachRow("SELECT kind, id, body FROM team_records ORDER BY kind, id", func(r *sql.Rows) error {
		var kind, id, body string
		if err := r.Scan(&kind, &id, &body); err != nil {
			return err
		}
		return f(kind, id, []byte(body))
	})
}

// DeleteTeamRecord removes the document of kind and id.
func (s *Store) DeleteTeamRecord(kind, id string) {
	s.exec("DELETE FROM team_records WHERE kind = ? AND id = ?", kind, id)
}
