// Linux calls Glibc's Swift module does not export (they need _GNU_SOURCE), wrapped as static inline functions:
// nothing to link beyond the C library. SwiftPM does not rebuild the Swift files that inline these when this header
// changes: after editing it, touch Sources/LockstepSystem/FileDescriptor.swift (or build from clean).
#include <errno.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000  // <fcntl.h> defines it only for _GNU_SOURCE
#endif

/// statx(2) of an open descriptor asking only for its size and link count. Unlike fstat(2), it does not ask for the
/// timestamps, so on filesystems with multigrain timestamps (Linux 6.13+: ext4, xfs, btrfs, tmpfs) it does not
/// mark the inode's ctime as queried — which would make the next write stamp a fresh fine-grained time and
/// dirty the inode, on every write. Where statx is missing (Linux < 4.11) or filtered out (an older seccomp
/// profile), fstat answers instead. Returns 0, or -1 with errno set.
static inline int lockstep_size_and_links(int fd, int64_t *size, uint32_t *links) {
    struct statx buffer;
    if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_SIZE | STATX_NLINK, &buffer) == 0) {
        *size = (int64_t)buffer.stx_size;
        *links = buffer.stx_nlink;
        return 0;
    }
    if (errno != ENOSYS && errno != EPERM) return -1;
    struct stat info;
    if (fstat(fd, &info) != 0) return -1;
    *size = (int64_t)info.st_size;
    *links = (uint32_t)info.st_nlink;
    return 0;
}

/// accept4(2): the accepted connection O_CLOEXEC from the start (SOCK_CLOEXEC). Returns the descriptor, or -1 with
/// errno set.
static inline int lockstep_accept_cloexec(int fd) {
    return (int)syscall(SYS_accept4, fd, NULL, NULL, SOCK_CLOEXEC);
}

/// pipe2(2): both ends O_CLOEXEC from the start. Returns 0, or -1 with errno set.
static inline int lockstep_pipe2(int ends[2], int flags) {
    return (int)syscall(SYS_pipe2, ends, flags);
}

/// The calling thread's CPU affinity as a bit mask of `length` bytes (bit n: CPU n), read (`set` 0) or written
/// (`set` 1) with the raw system calls: glibc's wrappers and cpu_set_t need _GNU_SOURCE. Returns 0, or -1 with
/// errno set.
static inline int lockstep_affinity(int set, uint8_t *mask, int length) {
    long result = set ? syscall(SYS_sched_setaffinity, 0, length, mask) : syscall(SYS_sched_getaffinity, 0, length, mask);
    return result < 0 ? -1 : 0;
}

#include <pthread.h>
#include <signal.h>
#include <sys/file.h>
#include <time.h>

#ifndef SIGEV_THREAD_ID
#define SIGEV_THREAD_ID 4  // Linux: deliver to one thread (<bits/sigevent-consts.h>)
#endif

/// The real-time signal that ends a bounded flock wait. Its handler does nothing: the point is the EINTR.
static inline int lockstep_lock_signal(void) { return SIGRTMAX - 3; }

static void lockstep_lock_signal_handler(int signal) { (void)signal; }

static inline int64_t lockstep_monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static pthread_once_t lockstep_lock_once = PTHREAD_ONCE_INIT;
static pthread_key_t lockstep_lock_timer_key = 0;
static int lockstep_lock_setup_error = 0;

static void lockstep_lock_timer_delete(void *timer) {
    timer_delete(*(timer_t *)timer);
    free(timer);
}

static void lockstep_lock_setup(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = lockstep_lock_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: the flock must return EINTR
    if (sigaction(lockstep_lock_signal(), &action, NULL) != 0) { lockstep_lock_setup_error = errno; return; }
    lockstep_lock_setup_error = pthread_key_create(&lockstep_lock_timer_key, lockstep_lock_timer_delete);
}

/// The calling thread's timer aimed at itself, made on its first contended wait and deleted when it exits.
static inline timer_t *lockstep_lock_thread_timer(void) {
    timer_t *timer = (timer_t *)pthread_getspecific(lockstep_lock_timer_key);
    if (timer) return timer;
    timer = (timer_t *)malloc(sizeof(timer_t));
    if (!timer) { errno = ENOMEM; return NULL; }
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = lockstep_lock_signal();
    event._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    if (timer_create(CLOCK_MONOTONIC, &event, timer) != 0) { int saved = errno; free(timer); errno = saved; return NULL; }
    if (pthread_setspecific(lockstep_lock_timer_key, timer) != 0) {
        timer_delete(*timer);
        free(timer);
        errno = ENOMEM;
        return NULL;
    }
    return timer;
}

/// flock(2) that blocks in the kernel — so the lock is handed over the moment its holder lets go — but at most
/// `timeout_ns`: a POSIX timer aimed at the calling thread alone (SIGEV_THREAD_ID) sends `lockstep_lock_signal()`,
/// whose handler is installed without SA_RESTART, so the flock returns EINTR at the deadline. flock(2) has no timed
/// form, and polling it with LOCK_NB spins and sleeps under contention instead of being woken.
///
/// - The timer re-fires every millisecond after the deadline, so a signal that lands between the deadline check and
///   the flock call cannot leave the wait unbounded.
/// - The signal is unblocked for the wait (Dispatch's worker threads block every asynchronous signal) and the
///   caller's mask restored afterwards.
/// - The timer is disarmed before the mask is restored: a signal it raised is delivered, to the empty handler, as
///   that system call returns, so no stray EINTR reaches later code. Each thread keeps its one timer (made on its
///   first contended wait, deleted when the thread exits), so a wait costs two timer_settime calls, not a timer.
/// - The handler is process-wide: a program that uses SIGRTMAX-3 itself should not also take Lockstep's locks.
/// Returns 0; or -1 with errno: EWOULDBLOCK when the wait ran out, another value when flock or the timer failed.
static inline int lockstep_flock_timed(int fd, int operation, int64_t timeout_ns) {
    pthread_once(&lockstep_lock_once, lockstep_lock_setup);
    if (lockstep_lock_setup_error) { errno = lockstep_lock_setup_error; return -1; }
    int signal_number = lockstep_lock_signal();
    sigset_t only, previous;
    sigemptyset(&only);
    sigaddset(&only, signal_number);
    if (pthread_sigmask(SIG_UNBLOCK, &only, &previous) != 0) return -1;
    int result = -1;
    timer_t *timer = lockstep_lock_thread_timer();
    if (timer) {
        int64_t deadline = lockstep_monotonic_ns() + timeout_ns;
        struct itimerspec arm;
        memset(&arm, 0, sizeof arm);
        arm.it_value.tv_sec = timeout_ns / 1000000000;
        arm.it_value.tv_nsec = timeout_ns % 1000000000;
        if (arm.it_value.tv_sec <= 0 && arm.it_value.tv_nsec <= 0) { arm.it_value.tv_sec = 0; arm.it_value.tv_nsec = 1; }  // zero disarms
        arm.it_interval.tv_nsec = 1000000;
        if (timer_settime(*timer, 0, &arm, NULL) == 0) {
            for (;;) {
                if (flock(fd, operation) == 0) { result = 0; break; }
                if (errno != EINTR) break;
                if (lockstep_monotonic_ns() >= deadline) { errno = EWOULDBLOCK; break; }
            }
            int saved = errno;
            struct itimerspec disarm;
            memset(&disarm, 0, sizeof disarm);
            timer_settime(*timer, 0, &disarm, NULL);
            errno = saved;
        }
    }
    if (sigismember(&previous, signal_number)) {
        int saved = errno;
        pthread_sigmask(SIG_SETMASK, &previous, NULL);
        errno = saved;
    }
    return result;
}

/// The termination signal (SIGTERM or SIGINT) that arrived while it was held back, or 0.
static volatile sig_atomic_t lockstep_termination_pending = 0;
static struct sigaction lockstep_termination_saved[2] = {};  // initialized: Swift emits only defined globals

static void lockstep_termination_note(int signal) { lockstep_termination_pending = signal; }

/// Holds SIGTERM and SIGINT back, process-wide (any thread may receive them): one that arrives is noted by a
/// handler instead of ending the process, until `lockstep_allow_termination`. SA_RESTART: the system calls it
/// interrupts meanwhile go on. Returns 0, or -1 with errno (nothing changed).
static inline int lockstep_defer_termination(void) {
    lockstep_termination_pending = 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = lockstep_termination_note;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGTERM, &action, &lockstep_termination_saved[0]) != 0) return -1;
    if (sigaction(SIGINT, &action, &lockstep_termination_saved[1]) != 0) {
        int saved = errno;
        sigaction(SIGTERM, &lockstep_termination_saved[0], NULL);
        errno = saved;
        return -1;
    }
    return 0;
}

/// Puts the previous SIGTERM and SIGINT actions back, then raises the one that arrived meanwhile, if any: the
/// process ends (or its own handler runs) as it would have, only later.
static inline void lockstep_allow_termination(void) {
    sigaction(SIGTERM, &lockstep_termination_saved[0], NULL);
    sigaction(SIGINT, &lockstep_termination_saved[1], NULL);
    int pending = lockstep_termination_pending;
    lockstep_termination_pending = 0;
    if (pending) raise(pending);
}

/// The bounds of the `lockstep_previews` section of the executable this is linked into: the linker defines
/// `__start_`/`__stop_` symbols for a section whose name is a C identifier. Weak, so an executable with no
/// `#Preview` links (both are null); hidden, so each executable or library reads its own.
extern const char __start_lockstep_previews[] __attribute__((weak, visibility("hidden")));
extern const char __stop_lockstep_previews[] __attribute__((weak, visibility("hidden")));
static inline const void *lockstep_previews_start(void) { return __start_lockstep_previews; }
static inline const void *lockstep_previews_stop(void) { return __stop_lockstep_previews; }

/// The bounds of the Swift runtime's `swift5_protocol_conformances` section of this executable (one 32-bit relative
/// offset to a conformance descriptor per record): how `@main struct X: AppIntentsExtension {}` finds the intents
/// it was linked with, as Apple's build step finds them in the extension's metadata. Weak and hidden, as above.
extern const char __start_swift5_protocol_conformances[] __attribute__((weak, visibility("hidden")));
extern const char __stop_swift5_protocol_conformances[] __attribute__((weak, visibility("hidden")));
static inline const void *lockstep_conformances_start(void) { return __start_swift5_protocol_conformances; }
static inline const void *lockstep_conformances_stop(void) { return __stop_swift5_protocol_conformances; }
