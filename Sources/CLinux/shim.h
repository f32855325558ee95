// Linux calls Glibc's Swift module does not export (they need _GNU_SOURCE), wrapped as static inline functions:
// nothing to link beyond the C library. SwiftPM does not rebuild the Swift files that inline these when this header
// changes: after editing it, touch Sources/LockstepSystem/FileDescriptor.swift (or build from clean).
#include <errno.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <sys/stat.h>
#include <stdint.h>
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
