#!/bin/sh
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu). Upload it
# with run_autograder, the reference folder and asmrun's .deb (`make deb`) or its binary.
set -eu
apt-get update
if ls /autograder/source/asmrun_*.deb >/dev/null 2>&1; then
    # The package pulls in nasm, binutils, gcc and qemu-user.
    apt-get install -y /autograder/source/asmrun_*.deb
else
    apt-get install -y nasm binutils gcc libc6-dev qemu-user
    install -m 755 /autograder/source/asmrun /usr/local/bin/asmrun
fi
