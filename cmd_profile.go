package main

// TEMPORARY: replaced by the real command while the project is assembled.
func (c *cli) runProfile(args []string) error { return usagef("profile: not yet available") }
