#include "pb_thumbnail.h"
#include <chafa.h>

int32_t pb_thumbnail(const uint8_t *rgba, int32_t width, int32_t height, int32_t cols, int32_t rows, int32_t palette,
                     uint32_t *chars, int32_t *fg, int32_t *bg) {
    if (!rgba || width <= 0 || height <= 0 || cols <= 0 || rows <= 0) return -1;
    ChafaSymbolMap *map = chafa_symbol_map_new();
    // One-column symbols only, so every cell stays one column wide.
    chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_HALF | CHAFA_SYMBOL_TAG_QUAD);
    ChafaCanvasConfig *config = chafa_canvas_config_new();
    chafa_canvas_config_set_geometry(config, cols, rows);
    chafa_canvas_config_set_canvas_mode(config, palette >= 256 ? CHAFA_CANVAS_MODE_INDEXED_256
                                                : palette >= 16 ? CHAFA_CANVAS_MODE_INDEXED_16 : CHAFA_CANVAS_MODE_INDEXED_8);
    chafa_canvas_config_set_symbol_map(config, map);
    ChafaCanvas *canvas = chafa_canvas_new(config);
    chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, rgba, width, height, width * 4);
    for (int32_t y = 0; y < rows; y++) {
        for (int32_t x = 0; x < cols; x++) {
            int i = y * cols + x;
            gint f = 0, b = 0;
            chars[i] = chafa_canvas_get_char_at(canvas, x, y);
            chafa_canvas_get_raw_colors_at(canvas, x, y, &f, &b);
            // chafa marks "no colour" with indices outside the palette (transparent, default):
            // use the cell's other colour, or black.
            int fok = f >= 0 && f < palette, bok = b >= 0 && b < palette;
            fg[i] = fok ? f : (bok ? b : 0);
            bg[i] = bok ? b : (fok ? f : 0);
        }
    }
    chafa_canvas_unref(canvas);
    chafa_canvas_config_unref(config);
    chafa_symbol_map_unref(map);
    return 0;
}
