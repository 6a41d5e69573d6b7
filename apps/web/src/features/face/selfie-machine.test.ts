import { describe, expect, it } from 'vitest';
import {
  initialSelfieState,
  type SelfieEvent,
  type SelfieState,
  selfieReducer,
  selfieView,
  wantsStream,
} from './selfie-machine';

type S = SelfieState<string>;
const run = (...events: SelfieEvent<string>[]): S =>
  events.reduce<S>((s, e) => selfieReducer(s, e), initialSelfieState<string>());

describe('selfie state machine', () => {
  it('starts with the camera off, nothing taken', () => {
    const s = initialSelfieState<string>();
    expect(s).toEqual({ camera: 'off', failure: null, photo: null, source: null, uploading: false });
    expect(selfieView(s).primary).toBe('start');
    expect(wantsStream(s)).toBe(false);
  });

  it('camera path: start → live → captured (camera stops) → upload', () => {
    const starting = run({ type: 'start' });
    expect(starting.camera).toBe('starting');
    expect(wantsStream(starting)).toBe(true);
    expect(selfieView(starting)).toMatchObject({ showVideo: true, primary: 'capture', busy: true });

    const live = selfieReducer(starting, { type: 'started' });
    expect(live.camera).toBe('live');
    expect(selfieView(live)).toMatchObject({
      showVideo: true,
      primary: 'capture',
      busy: false,
      offerFile: true,
    });

    const taken = selfieReducer(live, { type: 'captured', photo: 'p1' });
    expect(taken).toMatchObject({ camera: 'off', photo: 'p1', source: 'camera' });
    expect(wantsStream(taken)).toBe(false);
    expect(selfieView(taken)).toMatchObject({ showVideo: false, primary: 'submit', canRetake: true });

    const uploading = selfieReducer(taken, { type: 'upload' });
    expect(uploading.uploading).toBe(true);
    expect(selfieView(uploading)).toMatchObject({ primary: 'submit', busy: true, canRetake: false });
  });

  it('permission denied: blocked with the reason, the file input becomes the main way, retry offered', () => {
    const s = run({ type: 'start' }, { type: 'failed', failure: 'denied' });
    expect(s).toMatchObject({ camera: 'blocked', failure: 'denied' });
    expect(wantsStream(s)).toBe(false);
    expect(selfieView(s)).toMatchObject({ showVideo: false, primary: 'pick', canRetryCamera: true });
    // Retrying asks again.
    expect(selfieReducer(s, { type: 'start' })).toMatchObject({ camera: 'starting', failure: null });
  });

  it('no camera API at all: no retry button, only the file input', () => {
    const s = run({ type: 'start' }, { type: 'failed', failure: 'unsupported' });
    expect(selfieView(s)).toMatchObject({ primary: 'pick', canRetryCamera: false });
  });

  it('a photo picked through the file input while the camera opens stops the camera', () => {
    const s = run({ type: 'start' }, { type: 'picked', photo: 'file' });
    expect(s).toMatchObject({ camera: 'off', photo: 'file', source: 'file' });
    expect(wantsStream(s)).toBe(false);
    // The stream that arrives afterwards is not taken.
    expect(selfieReducer(s, { type: 'started' })).toBe(s);
    expect(selfieReducer(s, { type: 'failed', failure: 'busy' })).toBe(s);
  });

  it('a photo picked while blocked keeps the camera blocked; retake goes back to the file input', () => {
    const s = run({ type: 'start' }, { type: 'failed', failure: 'denied' }, { type: 'picked', photo: 'f' });
    expect(s).toMatchObject({ camera: 'blocked', photo: 'f' });
    expect(selfieView(s).primary).toBe('submit');
    const again = selfieReducer(s, { type: 'retake' });
    expect(again).toMatchObject({ camera: 'blocked', photo: null });
    expect(selfieView(again).primary).toBe('pick');
  });

  it('retake after a camera photo opens the camera again', () => {
    const s = run(
      { type: 'start' },
      { type: 'started' },
      { type: 'captured', photo: 'p' },
      { type: 'retake' },
    );
    expect(s).toMatchObject({ camera: 'starting', photo: null, source: null });
    expect(wantsStream(s)).toBe(true);
  });

  it('hiding the page stops the camera; showing it again starts it', () => {
    const hidden = run({ type: 'start' }, { type: 'started' }, { type: 'stop' });
    expect(hidden.camera).toBe('off');
    expect(wantsStream(hidden)).toBe(false);
    expect(selfieReducer(hidden, { type: 'start' }).camera).toBe('starting');
    // Stopping while opening also drops the stream to come.
    expect(run({ type: 'start' }, { type: 'stop' }, { type: 'started' }).camera).toBe('off');
  });

  it('ignores events that do not apply', () => {
    const off = initialSelfieState<string>();
    expect(selfieReducer(off, { type: 'captured', photo: 'x' })).toBe(off);
    expect(selfieReducer(off, { type: 'retake' })).toBe(off);
    expect(selfieReducer(off, { type: 'upload' })).toBe(off);
    expect(selfieReducer(off, { type: 'started' })).toBe(off);
    const starting = run({ type: 'start' });
    expect(selfieReducer(starting, { type: 'start' })).toBe(starting);
    // A frame cannot be captured before the preview is live.
    expect(selfieReducer(starting, { type: 'captured', photo: 'x' })).toBe(starting);
    // With a photo, "start" does not throw it away.
    const taken = run({ type: 'start' }, { type: 'started' }, { type: 'captured', photo: 'p' });
    expect(selfieReducer(taken, { type: 'start' })).toBe(taken);
  });

  it('nothing changes during the upload; a failed upload keeps the photo for another try', () => {
    const uploading = run(
      { type: 'start' },
      { type: 'started' },
      { type: 'captured', photo: 'p' },
      { type: 'upload' },
    );
    for (const e of [
      { type: 'retake' },
      { type: 'start' },
      { type: 'picked', photo: 'q' },
      { type: 'upload' },
    ] as SelfieEvent<string>[]) {
      expect(selfieReducer(uploading, e)).toBe(uploading);
    }
    const failed = selfieReducer(uploading, { type: 'uploadFailed' });
    expect(failed).toMatchObject({ uploading: false, photo: 'p' });
    expect(selfieView(failed)).toMatchObject({ primary: 'submit', busy: false, canRetake: true });
  });
});
