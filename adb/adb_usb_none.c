/*
 * No direct USB (Windows): adb's own driver (WinUSB through the Android
 * USB driver) owns the device there, so the USB transport of
 * --transport direct is not offered; the adb server and direct TCP are.
 * init fails and the transport reports adb_usb_unavailable.
 */
#include "adb_usb.h"

#include <stddef.h>

const char adb_usb_unavailable[] =
    "direct USB is not available on Windows (adb's driver owns the device); use the adb "
    "server (the default) or --transport direct -e HOST:PORT over TCP";

static void *none_init(void)
{
    return NULL;
}

const struct adb_usb_ops adb_usb_system_ops = {.init = none_init};
