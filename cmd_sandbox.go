package main

// TEMPORARY: replaced by the real command while the project is assembled.
func (c *cli) runSandbox(args []string) error { return usagef("sandbox: not yet available") }
