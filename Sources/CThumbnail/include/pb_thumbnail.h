// Terminal thumbnails with libchafa, behind a header with plain C types only.
#ifndef PB_THUMBNAIL_H
#define PB_THUMBNAIL_H
#include <stdint.h>

/// Renders RGBA8 pixels into cols×rows cells of one-column symbols (space, blocks, halves,
/// quadrants) with colours from the 256-colour palette (`palette` 256), or the 16 or 8 basic
/// colours. Writes a code point, a foreground and a background colour index per cell (row
/// major); returns 0, or -1 on failure.
int32_t pb_thumbnail(const uint8_t *rgba, int32_t width, int32_t height, int32_t cols, int32_t rows, int32_t palette,
                     uint32_t *chars, int32_t *fg, int32_t *bg);
#endif
