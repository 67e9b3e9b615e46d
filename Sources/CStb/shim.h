// stb_image and stb_image_write from Debian's libstb-dev (libstb.so). Imported only by
// PushboxFetch, which reads an image's pixel size before anything is decoded, decodes images,
// and writes the PNGs pushbox snapshot --png cuts from a browser's screenshot.
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
