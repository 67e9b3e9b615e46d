// stb_image from Debian's libstb-dev (libstb.so). Imported only by PushboxFetch, which calls
// stbi_info_from_memory to read an image's pixel size before anything is decoded.
#include <stb/stb_image.h>
