package widget

import "testing"

func TestReadingCountsLinesNotYetShown(t *testing.T) {
	var r Reading
	lines := []string{"Amount: 100", "\x1b[1mHolder: Ana\x1b[0m", "Account: main"}
	if n := r.Unread(lines); n != 3 {
		t.Fatalf("nothing shown, %d unread; want 3", n)
	}
	r.Show(lines[:2])
	if n := r.Unread(lines); n != 1 {
		t.Fatalf("two of three shown, %d unread; want 1", n)
	}
	// A line that changed is a line not read.
	lines[0] = "Amount: 200"
	if n := r.Unread(lines); n != 2 {
		t.Fatalf("a changed line counts as read: %d unread; want 2", n)
	}
	r.Show([]string{"Holder: Ana", "Amount: 200", "Account: main"})
	if n := r.Unread(lines); n != 0 {
		t.Fatalf("every line shown (styles aside), %d unread", n)
	}
}
