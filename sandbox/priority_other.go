//go:build !linux

package sandbox

// lowerThreadPriority does nothing where threads have no priority of their
// own that the sandbox knows how to set.
func lowerThreadPriority() {}
