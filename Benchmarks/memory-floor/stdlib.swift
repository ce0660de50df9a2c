// The same floor without Foundation (see foundation.swift): the Swift standard library and libc only.
import Glibc

while true { sleep(3600) }
