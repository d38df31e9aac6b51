// FFmpeg's demuxers, decoders, scaler and utilities (Debian: libavformat-dev, libavcodec-dev, libswscale-dev,
// libavutil-dev; every header lives under the one include directory libavformat's pkg-config file names).
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/pixdesc.h>
