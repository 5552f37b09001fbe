//go:build !linux

package store

// lowerThreadPriority does nothing where threads have no priority of their
// own that the sandbox knows how to set.
func lowerThreadPriority() {}
