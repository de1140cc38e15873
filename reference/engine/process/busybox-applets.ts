/**
 * The applets of busybox 1.35 (Debian's build, `busybox --list`): the names a busybox image answers
 * to. Those the reference does not simulate fail with a message saying they are outside the fixture
 * command contract, rather than "not found", which would be false.
 */
const NAMES =
  '[ [[ acpid adjtimex ar arch arp arping ascii ash awk base64 basename bc blkdiscard blockdev brctl ' +
  'bunzip2 busybox bzcat bzip2 cal cat chgrp chmod chown chroot chvt clear cmp cp cpio crc32 crond ' +
  'crontab cttyhack cut date dc dd deallocvt depmod devmem df diff dirname dmesg dnsdomainname dos2unix ' +
  'dpkg dpkg-deb du dumpkmap dumpleases echo ed egrep env expand expr factor fallocate false fatattr ' +
  'fdisk fgrep find findfs fold free freeramdisk fsfreeze fstrim ftpget ftpput getopt getty grep groups ' +
  'gunzip gzip halt head hexdump hostid hostname httpd hwclock i2cdetect i2cdump i2cget i2cset ' +
  'i2ctransfer id ifconfig ifdown ifup init insmod ionice ip ipcalc ipneigh kill killall klogd last ' +
  'less link linux32 linux64 linuxrc ln loadfont loadkmap logger login logname logread losetup ls lsmod ' +
  'lsscsi lzcat lzma lzop md5sum mdev microcom mim mkdir mkdosfs mke2fs mkfifo mknod mkpasswd mkswap ' +
  'mktemp modinfo modprobe more mount mt mv nameif nc netstat nl nologin nproc nsenter nslookup nuke od ' +
  'openvt partprobe passwd paste patch pidof ping ping6 pivot_root poweroff printf ps pwd rdate ' +
  'readlink realpath reboot renice reset resume rev rm rmdir rmmod route rpm rpm2cpio run-init ' +
  'run-parts sed seq setkeycodes setpriv setsid sh sha1sum sha256sum sha3sum sha512sum shred shuf sleep ' +
  'sort ssl_client start-stop-daemon stat strings stty su sulogin svc svok swapoff swapon switch_root ' +
  'sync sysctl syslogd tac tail tar taskset tc tee telnet telnetd test tftp time timeout top touch tr ' +
  'traceroute traceroute6 true truncate ts tty tunctl ubirename udhcpc udhcpd uevent umount uname ' +
  'uncompress unexpand uniq unix2dos unlink unlzma unshare unxz unzip uptime usleep uudecode uuencode ' +
  'vconfig vi w watch watchdog wc wget which who whoami xargs xxd xz xzcat yes zcat ';

export const BUSYBOX_APPLETS: ReadonlySet<string> = new Set(NAMES.trim().split(' '));
