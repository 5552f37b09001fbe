package main

import (
	"tesouro/ui"
)

// screens lists the dashboard's screens in tab order; number keys 1..9 and 0
// select them in this order. Each views package exports New(*ui.Session).
var screens = []ui.Factory{}
