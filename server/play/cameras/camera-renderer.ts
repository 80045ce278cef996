import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { CRANE, type CranePrize } from '../crane/crane-machine';

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
const screenX = (across: number, depth: number): number => FRAME_WIDTH / 2 + (across - CRANE.field / 2) * 0.42 * perspective(depth);

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
  const canvas = createCanvas(FRAME_WIDTH, FRAME_HEIGHT);
  drawScene(canvas.getContext('2d'), camera, scene);
  return canvas.encodeSync('jpeg', JPEG_QUALITY);
}

/** The video picture's size: the camera is mounted sideways, so its picture is portrait. */
export const VIDEO_FRAME = { width: FRAME_HEIGHT, height: FRAME_WIDTH } as const;

/**
 * One camera's picture as the machine's video camera sends it: raw RGBA, VIDEO_FRAME.width ×
 * VIDEO_FRAME.height, turned a quarter anticlockwise, because the camera is mounted on its side.
 * The play screen turns the video a quarter clockwise [R9-10], so the player sees it upright, the
 * same way up as the still pictures.
 */
export function renderPixels(camera: CameraName, scene: CameraScene): Buffer {
  const canvas = createCanvas(VIDEO_FRAME.width, VIDEO_FRAME.height);
  const g = canvas.getContext('2d');
  g.translate(0, VIDEO_FRAME.height);
  g.rotate(-Math.PI / 2);
  drawScene(g, camera, scene);
  // The picture is opaque, so the canvas's premultiplied pixels are plain RGBA. A copy: the canvas goes.
  return Buffer.from(canvas.data());
}

/** The tick marker: TICK_MARKER.bits squares in a row from the video picture's top-left corner. */
export const TICK_MARKER = { bits: 16, cell: 8, x: 8, y: 8 } as const;

/**
 * Writes a machine tick into a video picture's RGBA pixels (VIDEO_FRAME size) as a row of black
 * (0) and white (1) squares, most significant bit first (tick mod 2^16). The feed benchmark reads
 * it back from the decoded video in the browser, which is how it times control input → the first
 * video frame showing it. Only with RTC_TICK_MARKER=1.
 */
export function stampTick(pixels: Buffer, tick: number): void {
  const { bits, cell, x, y } = TICK_MARKER;
  for (let bit = 0; bit < bits; bit += 1) {
    const on = ((tick >>> (bits - 1 - bit)) & 1) === 1 ? 255 : 0;
    for (let row = 0; row < cell; row += 1) {
      const start = ((y + row) * VIDEO_FRAME.width + x + bit * cell) * 4;
      for (let i = 0; i < cell * 4; i += 4) {
        pixels[start + i] = on;
        pixels[start + i + 1] = on;
        pixels[start + i + 2] = on;
        pixels[start + i + 3] = 255;
      }
    }
  }
}
