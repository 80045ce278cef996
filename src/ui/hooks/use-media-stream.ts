import { useEffect, useRef } from 'react';

/**
 * A ref for a `<video>` that shows `stream` (an opaque MediaStream from a port): set as its
 * srcObject whenever the stream changes.
 */
export function useMediaStream(stream: unknown) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.srcObject = stream as MediaStream;
  }, [stream]);
  return ref;
}
