package main

// TEMPORARY: replaced by the real command while the project is assembled.
func (c *cli) runLogin(args []string) error { return usagef("login: not yet available") }
