package store

import "syscall"

// lowerThreadPriority makes the calling OS thread the last to get a core
// and the disk (nice 19, the idle I/O class). The caller has locked its
// goroutine to the thread and never unlocks it, so that the thread ends
// with the goroutine instead of serving others at that priority.
func lowerThreadPriority() {
	tid := syscall.Gettid()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, 19)
	const whoProcess, classIdle = 1, 3
	_, _, _ = syscall.Syscall(syscall.SYS_IOPRIO_SET, whoProcess, uintptr(tid), classIdle<<13)
}
