#ifndef UTI_CEXTENDEDATTRIBUTES_SHIM_H
#define UTI_CEXTENDEDATTRIBUTES_SHIM_H
// getxattr(2) and its kin, and statx(2)'s mount identifier, which Swift's Glibc module does not export.
// No feature macro is defined here: it would change what the system headers declare for every module that
// shares them. statx is reached through syscall(2) and the kernel's own header.
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/stat.h>

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

/// The identifier of the mount the file open on `fd` is on (statx's STX_MNT_ID, Linux 5.8): it tells a
/// bind mount from the file system it shows, which st_dev does not. -1 with errno set when the kernel
/// cannot say (ENOSYS, or EOPNOTSUPP when the mask comes back without it).
static inline int uti_mount_identifier(int fd, uint64_t *identifier) {
#if defined(SYS_statx) && defined(STATX_MNT_ID)
    struct statx status;
    if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &status) != 0) return -1;
    if (!(status.stx_mask & STATX_MNT_ID)) { errno = EOPNOTSUPP; return -1; }
    *identifier = status.stx_mnt_id;
    return 0;
#else
    (void)fd; (void)identifier;
    errno = ENOSYS;
    return -1;
#endif
}
/// The kernel's directory entries (struct linux_dirent64: inode, offset, record length, type, name) read from the
/// directory open on `fd` into `buffer`: the bytes read, 0 at the end, -1 with errno set. getdents64(2) by its
/// number, as glibc 2.30's wrapper is not declared without a feature macro.
static inline long uti_directory_entries(int fd, void *buffer, size_t size) {
    return syscall(SYS_getdents64, fd, buffer, size);
}
#endif
