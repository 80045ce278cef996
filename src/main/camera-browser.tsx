// The camera page's entry (/camera): its own bundle, nothing of it in the player's app or the console.
import 'reflect-metadata/lite';
import { useEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { CameraPageApp, type CameraPageMemory } from '../ui/camera/camera-page';
import '../ui/camera/camera.css';
import { createCameraContainer } from './camera-container';

/** Marks the page as live (`<html data-ready>`) once its first render has committed: e2e waits for it. */
function Ready({ children }: { children: ReactNode }) {
  useEffect(() => document.documentElement.setAttribute('data-ready', ''), []);
  return children;
}

/** The station, camera and codec stay on this device; the key only for this tab's session. */
const memory: CameraPageMemory = {
  read: (name) => {
    try {
      return (name === 'key' ? sessionStorage : localStorage).getItem(`onkure.camera.${name}`);
    } catch {
      return null;
    }
  },
  write: (name, value) => {
    try {
      (name === 'key' ? sessionStorage : localStorage).setItem(`onkure.camera.${name}`, value);
    } catch {
      // Storage refused (private mode): the page still works, it just forgets.
    }
  },
};

let codec: 'VP8' | 'H264' = memory.read('codec') === 'H264' ? 'H264' : 'VP8';
const root = document.getElementById('root');
if (!root) throw new Error('camera.html has no #root element');
// Absolute: the WHIP client resolves the session's Location against it.
const container = createCameraContainer({ whipBase: window.location.origin, codec: () => codec });
createRoot(root).render(
  <Ready>
    <CameraPageApp container={container} memory={memory} codec={{ get: () => codec, set: (next) => (codec = next) }} />
  </Ready>,
);
