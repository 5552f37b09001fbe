package quote

import "github.com/tesouro-treasury/tesouro/views/internal/form"

// extLocked is what the external id says while it cannot be typed into:
// it is the idempotency key of the intent, and a stray key in it would make
// a retry a second ticket.
const extLocked = "locked · ctrl+e to edit"

// optionalDetails are the details a ticket can go without: the focus does
// not start on them.
var optionalDetails = map[string]bool{
	dExternal: true, dRemitter: true, dAdditional: true, dPixMessage: true, dReference: true,
}

// firstToFill is where the details' focus starts: the first visible entry
// the user must fill and has not (a picker with nothing chosen, an empty
// required field), else the first one that must be filled at all, else the
// first optional one after the external id, else the external id itself.
func (d *details) firstToFill() int {
	must, optional := -1, -1
	for i, e := range d.entries {
		if !d.visible(e) {
			continue
		}
		if e.p != nil {
			if e.p.Chosen == nil {
				return i
			}
			if must < 0 {
				must = i
			}
			continue
		}
		switch {
		case e.f.ID == dExternal:
		case optionalDetails[e.f.ID] || e.f.Kind == form.Toggle:
			if optional < 0 {
				optional = i
			}
		case e.f.Value() == "":
			return i
		case must < 0:
			must = i
		}
	}
	switch {
	case must >= 0:
		return must
	case optional >= 0:
		return optional
	}
	return 0
}

// lockExternal makes the external id read-only.
func (d *details) lockExternal() {
	if f := d.get(dExternal); f != nil {
		f.Disabled = extLocked
	}
}

// unlockExternal lets the user edit the external id on purpose, and takes
// the focus there.
func (d *details) unlockExternal() {
	for i, e := range d.entries {
		if e.f != nil && e.f.ID == dExternal {
			e.f.Disabled = ""
			d.focusAt(i)
			return
		}
	}
}

// externalLocked reports whether the external id is still read-only.
func (d *details) externalLocked() bool {
	f := d.get(dExternal)
	return f != nil && f.Disabled != ""
}

// moveForm moves the quote form's focus by step among the visible fields,
// stopping at either end instead of wrapping round (a ↓ too many must not
// land on the input currency). It reports whether the focus moved.
func (m *Screen) moveForm(step int) bool {
	vis := m.form.visibleFields()
	cur := -1
	for i, x := range vis {
		if x == m.form.focused() {
			cur = i
		}
	}
	next := cur + step
	if cur < 0 {
		next = 0
	}
	if next < 0 || next >= len(vis) {
		return false
	}
	m.form.focusOn(vis[next].ID)
	return true
}
