// First: the canvas library's allocator reads its options when the library loads.
import './canvas-memory';
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { CRANE, type CranePrize } from '../../src/domain/play/crane-machine';

export type CameraName = 'front' | 'side';

/** What a camera sees: the claw and the prizes (a running machine or an idle field). */
export interface CameraScene {
  readonly x: number;
  readonly z: number;
  /** 0 = top, 1 = floor. */
  readonly h: number;
  /** 0 = open, 1 = closed. */
  readonly grip: number;
  readonly prizes: readonly CranePrize[];
  /** The prize in the arms, drawn under the claw. */
  readonly carryingPrizeId: number | null;
  /** The station is down: the picture is dimmed. */
  readonly dimmed: boolean;
}

export const FRAME_WIDTH = 480;
export const FRAME_HEIGHT = 360;
/** JPEG quality: 70 keeps a 480×360 frame near 15 KB with the edges of the claw sharp. */
export const JPEG_QUALITY = 70;

const TOP_Y = 34;
const NEAR_FLOOR_Y = 320;
const FAR_FLOOR_Y = 214;

/**
 * A camera's projection: `across` is the world axis that runs left-right in the picture, `depth`
 * the one that runs away from the lens. Front camera: across = x, depth = z (back is far). Side
 * camera (on the right wall, looking left): across = z (front glass on the left), depth = x (the
 * right wall is near).
 */
function project(camera: CameraName, x: number, z: number): { across: number; depth: number } {
  return camera === 'front' ? { across: x, depth: z } : { across: z, depth: CRANE.field - x };
}

const perspective = (depth: number): number => 1 - (depth / CRANE.field) * 0.38;
const floorY = (depth: number): number => NEAR_FLOOR_Y - (depth / CRANE.field) * (NEAR_FLOOR_Y - FAR_FLOOR_Y);
const screenX = (across: number, depth: number): number =>
  FRAME_WIDTH / 2 + (across - CRANE.field / 2) * 0.42 * perspective(depth);

function drawCabinet(g: SKRSContext2D, camera: CameraName): void {
  const wall = g.createLinearGradient(0, 0, 0, FRAME_HEIGHT);
  wall.addColorStop(0, '#2b2250');
  wall.addColorStop(1, '#4b3a7a');
  g.fillStyle = wall;
  g.fillRect(0, 0, FRAME_WIDTH, FRAME_HEIGHT);
  // The floor: a trapezoid from the near edge to the far wall.
  const nearL = screenX(0, 0);
  const nearR = screenX(CRANE.field, 0);
  const farL = screenX(0, CRANE.field);
  const farR = screenX(CRANE.field, CRANE.field);
  g.fillStyle = '#f4d9e8';
  g.beginPath();
  g.moveTo(nearL, NEAR_FLOOR_Y);
  g.lineTo(nearR, NEAR_FLOOR_Y);
  g.lineTo(farR, FAR_FLOOR_Y);
  g.lineTo(farL, FAR_FLOOR_Y);
  g.closePath();
  g.fill();
  // The chute opening in the front-left corner (front camera: left; side camera: left, near the glass).
  const c1 = project(camera, 0, 0);
  const c2 = project(camera, CRANE.chute.x1, CRANE.chute.z1);
  const a0 = Math.min(c1.across, c2.across);
  const a1 = Math.max(c1.across, c2.across);
  const d0 = Math.min(c1.depth, c2.depth);
  const d1 = Math.max(c1.depth, c2.depth);
  g.fillStyle = '#1a1430';
  g.beginPath();
  g.moveTo(screenX(a0, d0), floorY(d0));
  g.lineTo(screenX(a1, d0), floorY(d0));
  g.lineTo(screenX(a1, d1), floorY(d1));
  g.lineTo(screenX(a0, d1), floorY(d1));
  g.closePath();
  g.fill();
  g.strokeStyle = '#ffd23f';
  g.lineWidth = 3;
  g.stroke();
  // The rail the claw hangs from.
  g.fillStyle = '#c9c3e6';
  g.fillRect(0, TOP_Y - 10, FRAME_WIDTH, 6);
}

function drawPrize(g: SKRSContext2D, camera: CameraName, p: CranePrize, lift: number | null): void {
  const { across, depth } = project(camera, p.x, p.z);
  const k = perspective(depth);
  const r = p.radius * 0.42 * k;
  const cx = screenX(across, depth);
  const base = lift === null ? floorY(depth) : lift;
  g.fillStyle = `hsl(${p.hue}, 70%, 62%)`;
  g.strokeStyle = `hsl(${p.hue}, 60%, 35%)`;
  g.lineWidth = 2;
  g.beginPath();
  if (p.shape === 'box') {
    g.rect(cx - r, base - r * 1.5, r * 2, r * 1.5);
  } else if (p.shape === 'capsule') {
    g.arc(cx, base - r, r, 0, Math.PI * 2);
  } else {
    g.ellipse(cx, base - r * 0.8, r, r * 0.85, 0, 0, Math.PI * 2);
  }
  g.fill();
  g.stroke();
  if (p.shape === 'plush') {
    // A face: our own character, two eyes and a smile.
    g.fillStyle = '#3a2a3a';
    g.beginPath();
    g.arc(cx - r * 0.35, base - r, r * 0.1, 0, Math.PI * 2);
    g.arc(cx + r * 0.35, base - r, r * 0.1, 0, Math.PI * 2);
    g.fill();
    g.beginPath();
    g.arc(cx, base - r * 0.8, r * 0.22, 0.15 * Math.PI, 0.85 * Math.PI);
    g.stroke();
  }
}

function drawClaw(g: SKRSContext2D, camera: CameraName, s: CameraScene): number {
  const { across, depth } = project(camera, s.x, s.z);
  const k = perspective(depth);
  const cx = screenX(across, depth);
  const bottom = TOP_Y + s.h * (floorY(depth) - 30 * k - TOP_Y);
  g.strokeStyle = '#dcdcdc';
  g.lineWidth = 2;
  g.beginPath();
  g.moveTo(cx, TOP_Y - 4);
  g.lineTo(cx, bottom);
  g.stroke();
  g.fillStyle = '#b8b8c8';
  g.fillRect(cx - 12 * k, bottom - 8 * k, 24 * k, 12 * k);
  const spread = (1 - s.grip) * 26 * k + 6 * k;
  g.strokeStyle = '#8f8fa8';
  g.lineWidth = 4 * k;
  g.beginPath();
  g.moveTo(cx - 8 * k, bottom + 4 * k);
  g.lineTo(cx - spread, bottom + 26 * k);
  g.moveTo(cx + 8 * k, bottom + 4 * k);
  g.lineTo(cx + spread, bottom + 26 * k);
  g.stroke();
  return bottom + 30 * k;
}

/** Draws one camera's picture of a scene (FRAME_WIDTH × FRAME_HEIGHT). Prizes far from the lens are drawn first. */
function drawScene(g: SKRSContext2D, camera: CameraName, scene: CameraScene): void {
  drawCabinet(g, camera);
  const order = [...scene.prizes].sort((a, b) => project(camera, b.x, b.z).depth - project(camera, a.x, a.z).depth);
  const carried = scene.prizes.find((p) => p.id === scene.carryingPrizeId) ?? null;
  for (const p of order) if (p !== carried) drawPrize(g, camera, p, null);
  const clawBottom = drawClaw(g, camera, scene);
  if (carried) drawPrize(g, camera, { ...carried, x: scene.x, z: scene.z }, clawBottom + carried.radius * 0.5);
  if (scene.dimmed) {
    g.fillStyle = 'rgba(20, 16, 40, 0.6)';
    g.fillRect(0, 0, FRAME_WIDTH, FRAME_HEIGHT);
  }
}

/** One camera's picture of a scene as JPEG (the jpg feed). Pure apart from the canvas: the same scene gives the same bytes. */
export function renderFrame(camera: CameraName, scene: CameraScene): Buffer {
  return drawOn(
    FRAME_WIDTH,
    FRAME_HEIGHT,
    (g) => drawScene(g, camera, scene),
    (canvas) => canvas.encodeSync('jpeg', JPEG_QUALITY),
  );
}

/**
 * One canvas per picture size, drawn on again and again: a render is synchronous, and a fresh
 * canvas per picture (a native surface for each of the 40-odd pictures a second a running machine
 * shows) kept the garbage collector busy. Each drawing starts from the identity transform and a
 * saved state, and the scene paints every pixel (the cabinet first), so nothing of the previous
 * picture shows through: the same scene still gives the same bytes.
 */
const canvases = new Map<string, Canvas>();
function drawOn<T>(width: number, height: number, draw: (g: SKRSContext2D) => void, read: (canvas: Canvas) => T): T {
  const key = `${width}x${height}`;
  let canvas = canvases.get(key);
  if (!canvas) {
    canvas = createCanvas(width, height);
    canvases.set(key, canvas);
  }
  const g = canvas.getContext('2d');
  g.save();
  try {
    g.setTransform(1, 0, 0, 1, 0, 0);
    draw(g);
    return read(canvas);
  } finally {
    g.restore();
  }
}

/** The video picture's size: the camera is mounted sideways, so its picture is portrait. */
export const VIDEO_FRAME = { width: FRAME_HEIGHT, height: FRAME_WIDTH } as const;

/** Bytes of one video picture in I420 (planar YUV 4:2:0: a full-size Y plane, then quarter-size U and V planes). */
export const VIDEO_PICTURE_BYTES = (VIDEO_FRAME.width * VIDEO_FRAME.height * 3) / 2;

/**
 * One camera's picture as the machine's video camera sends it: I420 (what the VP8 encoder codes,
 * so the encoder converts nothing and its pipe carries 259 KB a picture instead of 691 KB of RGBA),
 * VIDEO_FRAME.width × VIDEO_FRAME.height, turned a quarter anticlockwise, because the camera is
 * mounted on its side. The play screen turns the video a quarter clockwise [R9-10], so the player
 * sees it upright, the same way up as the still pictures.
 */
export function renderPixels(camera: CameraName, scene: CameraScene): Buffer {
  return drawOn(
    VIDEO_FRAME.width,
    VIDEO_FRAME.height,
    (g) => {
      g.translate(0, VIDEO_FRAME.height);
      g.rotate(-Math.PI / 2);
      drawScene(g, camera, scene);
    },
    (canvas) => rgbaToI420(canvas.data(), VIDEO_FRAME.width, VIDEO_FRAME.height),
  ); // opaque: the premultiplied pixels are plain RGBA
}

/**
 * RGBA → I420 with BT.601 limited-range coefficients (what browsers assume for VP8 without colour
 * information), each chroma sample the mean of its 2 × 2 pixels. Width and height must be even.
 */
export function rgbaToI420(rgba: Uint8Array, width: number, height: number): Buffer {
  const out = Buffer.allocUnsafe((width * height * 3) / 2);
  const uBase = width * height;
  const vBase = uBase + (width * height) / 4;
  const half = width / 2;
  // Two rows at a time: each 2 × 2 block gives four luma samples and one U and one V. Pixels are
  // read four bytes at once (little-endian: R in the low byte), which is several times faster.
  const px =
    rgba.byteOffset % 4 === 0
      ? new Uint32Array(rgba.buffer, rgba.byteOffset, width * height)
      : new Uint32Array(Uint8Array.from(rgba).buffer);
  for (let y = 0; y < height; y += 2) {
    let top = y * width;
    let bottom = top + width;
    let c = (y / 2) * half;
    for (let x = 0; x < width; x += 2, top += 2, bottom += 2, c += 1) {
      const p0 = px[top]!,
        p1 = px[top + 1]!,
        p2 = px[bottom]!,
        p3 = px[bottom + 1]!;
      const r0 = p0 & 0xff,
        g0 = (p0 >>> 8) & 0xff,
        b0 = (p0 >>> 16) & 0xff;
      const r1 = p1 & 0xff,
        g1 = (p1 >>> 8) & 0xff,
        b1 = (p1 >>> 16) & 0xff;
      const r2 = p2 & 0xff,
        g2 = (p2 >>> 8) & 0xff,
        b2 = (p2 >>> 16) & 0xff;
      const r3 = p3 & 0xff,
        g3 = (p3 >>> 8) & 0xff,
        b3 = (p3 >>> 16) & 0xff;
      out[top] = ((66 * r0 + 129 * g0 + 25 * b0 + 128) >> 8) + 16;
      out[top + 1] = ((66 * r1 + 129 * g1 + 25 * b1 + 128) >> 8) + 16;
      out[bottom] = ((66 * r2 + 129 * g2 + 25 * b2 + 128) >> 8) + 16;
      out[bottom + 1] = ((66 * r3 + 129 * g3 + 25 * b3 + 128) >> 8) + 16;
      const r = (r0 + r1 + r2 + r3) >> 2;
      const g = (g0 + g1 + g2 + g3) >> 2;
      const b = (b0 + b1 + b2 + b3) >> 2;
      out[uBase + c] = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
      out[vBase + c] = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
    }
  }
  return out;
}

/** The tick marker: TICK_MARKER.bits squares in a row from the video picture's top-left corner. */
export const TICK_MARKER = { bits: 16, cell: 8, x: 8, y: 8 } as const;

/**
 * Writes a machine tick into a video picture (I420, VIDEO_FRAME size) as a row of black (0) and
 * white (1) squares, most significant bit first (tick mod 2^16): luma at the ends of the limited
 * range, chroma neutral. The feed benchmark reads it back from the decoded video in the browser,
 * which is how it times control input → the first video frame showing it. Only with
 * RTC_TICK_MARKER=1. The squares sit on even pixels, so each covers whole chroma samples.
 */
export function stampTick(picture: Buffer, tick: number): void {
  const { bits, cell, x, y } = TICK_MARKER;
  const { width, height } = VIDEO_FRAME;
  const uBase = width * height;
  const vBase = uBase + (width * height) / 4;
  for (let bit = 0; bit < bits; bit += 1) {
    const luma = ((tick >>> (bits - 1 - bit)) & 1) === 1 ? 235 : 16;
    const left = x + bit * cell;
    for (let row = 0; row < cell; row += 1)
      picture.fill(luma, (y + row) * width + left, (y + row) * width + left + cell);
    for (let row = 0; row < cell / 2; row += 1) {
      const start = (y / 2 + row) * (width / 2) + left / 2;
      picture.fill(128, uBase + start, uBase + start + cell / 2);
      picture.fill(128, vBase + start, vBase + start + cell / 2);
    }
  }
}
