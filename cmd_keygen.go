package main

// TEMPORARY: replaced by the real command while the project is assembled.
func (c *cli) runKeygen(args []string) error { return usagef("keygen: not yet available") }
