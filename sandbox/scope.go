package sandbox

// writable refuses writes by view-only and frozen accesses, as the service
// does before it reads a write's fields.
func (c *call) writable() error {
	if c.who == nil {
		return nil
	}
	return c.who.MayWrite(c.now)
}
