// Package e2e holds the real-terminal tests of the dashboard: each TestE2E…
// builds the tesouro binary once, runs it in its own tmux server against a
// sandbox, types keys as a user would and reads the screen back with
// capture-pane. Under CI a missing tmux fails the tests instead of skipping
// them.
package e2e
