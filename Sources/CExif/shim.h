#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>
