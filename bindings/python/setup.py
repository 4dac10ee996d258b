"""setup.py - the pmn package, built by cffi against an installed libpmn
(pkg-config pmn, after 'make install'), or against a built tree where
PMN_SRCDIR (and PMN_BUILDDIR) name it.  Offline, from the source tree:

    /usr/bin/python3 -m pip install --no-build-isolation --no-index bindings/python

(Debian's pip wants --user or a virtual environment, or
--break-system-packages, to install beside Debian's own packages.)"""
import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "pmn"))
from _build import library_version  # noqa: E402

setup(
    name="pmn",
    version=library_version(),
    description="Portable Mancala Notation: read, replay, check, write and analyse "
                "records of mancala games (libpmn from Python)",
    license="GPL-3.0-or-later",
    packages=["pmn"],
    setup_requires=["cffi>=1.15"],
    install_requires=["cffi>=1.15"],
    cffi_modules=["pmn/_build.py:ffibuilder"],
    python_requires=">=3.9",
)
