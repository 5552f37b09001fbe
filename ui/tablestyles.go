package ui

import "github.com/tesouro-treasury/tesouro/ui/widget"

// TableStyles are the theme's styles for a widget.Table.
func (t *Theme) TableStyles() widget.Styles {
	return widget.Styles{Header: t.TableHdr, Cell: t.Cell, Selected: t.Selected, Disabled: t.Disabled, Status: t.StatusStyle}
}
