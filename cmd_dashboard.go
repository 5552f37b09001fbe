package main

// TEMPORARY: replaced by the real command while the project is assembled.
func (c *cli) runDashboard(args []string) error { return usagef("dashboard: not yet available") }
