//go:build !race

package main

// raceDetector: the tests run under -race.
const raceDetector = false
