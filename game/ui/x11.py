"""Is a window manager running on this X display? (_NET_SUPPORTING_WM_CHECK on the root)

SDL cannot tell: without a manager it reports a fullscreen request as done although nothing
moved the window, so game/ui/window.py asks the X server itself, through libX11 (which SDL's
X11 driver has loaded anyway). None: not known (no libX11, no display).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

XA_WINDOW = 33
_ulong, _ptr = ctypes.c_ulong, ctypes.c_void_p


def _lib():
    name = ctypes.util.find_library("X11")
    if not name:
        return None
    x = ctypes.CDLL(name)
    x.XOpenDisplay.restype = _ptr
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XDefaultRootWindow.restype = _ulong
    x.XDefaultRootWindow.argtypes = [_ptr]
    x.XInternAtom.restype = _ulong
    x.XInternAtom.argtypes = [_ptr, ctypes.c_char_p, ctypes.c_int]
    x.XGetWindowProperty.argtypes = [
        _ptr, _ulong, _ulong, ctypes.c_long, ctypes.c_long, ctypes.c_int, _ulong,
        ctypes.POINTER(_ulong), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(_ulong),
        ctypes.POINTER(_ulong), ctypes.POINTER(_ptr),
    ]  # fmt: skip
    x.XFree.argtypes = [_ptr]
    x.XCloseDisplay.argtypes = [_ptr]
    return x


@functools.cache
def has_window_manager() -> bool | None:
    try:
        x = _lib()
    except OSError:
        return None
    if x is None:
        return None
    display = x.XOpenDisplay(None)
    if not display:
        return None
    try:
        atom = x.XInternAtom(display, b"_NET_SUPPORTING_WM_CHECK", 1)  # only if it exists
        if not atom:
            return False
        kind, fmt, count, after, data = _ulong(), ctypes.c_int(), _ulong(), _ulong(), _ptr()
        status = x.XGetWindowProperty(
            display, x.XDefaultRootWindow(display), atom, 0, 1, 0, XA_WINDOW,
            ctypes.byref(kind), ctypes.byref(fmt), ctypes.byref(count), ctypes.byref(after),
            ctypes.byref(data),
        )  # fmt: skip
        if data.value:
            x.XFree(data)
        return status == 0 and count.value > 0
    finally:
        x.XCloseDisplay(display)
