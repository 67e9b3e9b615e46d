// libchafa (libchafa-dev; its headers need libglib2.0-dev). Only CThumbnail's .c includes it:
// no Swift module imports glib's types.
#include <chafa.h>
