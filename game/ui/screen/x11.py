"""Is a window manager running on this X display? (_NET_SUPPORTING_WM_CHECK on the root)

SDL cannot tell: without a manager it reports a fullscreen request as done although nothing
moved the window, so game/ui/screen/window.py asks the X server itself, through libX11 (which SDL's
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


def connection_fd() -> int | None:
    """The file descriptor of SDL's own connection to the X server (None: not on X11, or
    not known). Input, expose and window events arrive on it: the idle loop sleeps in
    select() on it instead of asking SDL for events every few milliseconds."""
    try:
        import pygame

        if pygame.display.get_driver() != "x11":
            return None
        capsule = pygame.display.get_wm_info().get("display")
        x = _lib()
    except (OSError, pygame.error):
        return None
    if capsule is None or x is None:
        return None
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = _ptr, [ctypes.py_object, ctypes.c_char_p]
    try:
        display = get(capsule, b"display")
    except ValueError:  # not a capsule of that name
        return None
    if not display:
        return None
    x.XConnectionNumber.restype, x.XConnectionNumber.argtypes = ctypes.c_int, [_ptr]
    fd = x.XConnectionNumber(display)
    return fd if fd >= 0 else None
