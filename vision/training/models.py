"""The two networks, in torch, exported to ONNX for ``cv2.dnn``.

Both are deliberately tiny (tens of thousands of weights): they must train in minutes on one core
and read a frame in a few milliseconds on a tablet.  Only plain convolutions, batch norm, ReLU,
max-pooling and nearest upsampling are used, all of which ``cv2.dnn`` runs.
"""

from __future__ import annotations

import torch
from torch import nn


def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class DiceDetector(nn.Module):
    """Where the dice are: a centre heat map plus box size and centre offset, at 1/4 of the input.

    Output channels: 0 = centre logit, 1-2 = log box width/height in output cells,
    3-4 = sub-cell offset of the centre (CenterNet-style, one class: "a die").
    """

    def __init__(self) -> None:
        super().__init__()
        self.s4 = nn.Sequential(conv(3, 16, 2), conv(16, 24, 2), conv(24, 24))
        self.s8 = nn.Sequential(conv(24, 40, 2), conv(40, 40))
        self.s16 = nn.Sequential(conv(40, 64, 2), conv(64, 64))
        # A 1/32 stage so that a die filling a third of the frame is seen whole, not as loose pips.
        self.s32 = nn.Sequential(conv(64, 96, 2), conv(96, 96))
        self.lat32 = nn.Conv2d(96, 24, 1)
        self.lat16 = nn.Conv2d(64, 24, 1)
        self.lat8 = nn.Conv2d(40, 24, 1)
        self.lat4 = nn.Conv2d(24, 24, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.neck = conv(24, 24)
        self.head = nn.Conv2d(24, 5, 1)
        self.head.bias.data[0] = -4.0  # start from "no die anywhere": most cells are background

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(x)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p16 = self.lat16(f16) + self.up(self.lat32(f32))
        p8 = self.lat8(f8) + self.up(p16)
        p4 = self.lat4(f4) + self.up(p8)
        return self.head(self.neck(p4))


#: The face classifier's classes: 0 "not a die", 1..6 the faces, 7 "crooked" (on an edge, two faces half
#: seen), 8 "not a standard die" (numerals, symbols, a blank face: issue 29).  Networks exported before the
#: last class have 8 outputs; the reader takes either.
CLASSES = 9


class FaceClassifier(nn.Module):
    """What a die shows: :data:`CLASSES` logits, 0 = "not a die", 1..6 the faces, 7 = "crooked", 8 = "not a
    standard die", from a 32x32 BGR patch.

    Two convolutions at 16x16 (where a pip pattern takes shape) and at 8x8, ~310k weights.  The
    previous net (one convolution at 16x16, 24-48-64-64-96 channels, ~130k weights) did not fit its
    own training photos: given the labelled boxes it read only 95.3 % of the coloured tray dice and
    88.2 % of the N3VERS4YDIE dice it was trained on; this one reads 98.8 / 92.7 % of them, and
    95.9 / 74.3 % of held-out ones against 93.3 / 67.5 % (fold 0).  It costs ~2 ms more per frame.
    """

    def __init__(self, classes: int = CLASSES) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 32), nn.MaxPool2d(2),
            conv(32, 64), conv(64, 64), nn.MaxPool2d(2),
            conv(64, 96), conv(96, 96), nn.MaxPool2d(2),
            conv(96, 128), nn.AdaptiveAvgPool2d(1),
        )
        self.classify = nn.Conv2d(128, classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classify(self.features(x)).flatten(1)
