// Package clitest holds the end-to-end tests of the profile, keygen and
// login commands: the built tesouro binary against a real, private Secret
// Service and a sandbox served over loopback. It has no code of its own.
package clitest
