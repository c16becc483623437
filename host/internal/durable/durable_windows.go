package durable

import "os"

// DeviceOf: Windows reports no device number through os; the zero Device.
func DeviceOf(*os.File) Device { return Device{} }
