/**
 * The selfie step as a state machine (pure): the camera's state, the photo taken or picked, the
 * upload. The component runs the effects the state asks for: it opens the camera while `camera` is
 * 'starting', keeps the stream only while it is 'live', and stops every track otherwise.
 */
import type { CameraFailure } from './capture';

export type CameraStatus = 'off' | 'starting' | 'live' | 'blocked';

export interface SelfieState<P> {
  camera: CameraStatus;
  /** Why the camera is blocked (the file input is then the way to take the photo). */
  failure: CameraFailure | null;
  photo: P | null;
  /** Where the photo came from. */
  source: 'camera' | 'file' | null;
  uploading: boolean;
}

export type SelfieEvent<P> =
  /** Open the camera (entering the step, "开启摄像头", "重试"). */
  | { type: 'start' }
  /** The camera answered with a stream. */
  | { type: 'started' }
  /** The camera could not be opened. */
  | { type: 'failed'; failure: CameraFailure }
  /** Stop the camera (page hidden, step left). */
  | { type: 'stop' }
  /** A frame was captured from the live video. */
  | { type: 'captured'; photo: P }
  /** A photo was picked through the file input. */
  | { type: 'picked'; photo: P }
  /** Drop the photo and take another (the camera again unless it is blocked). */
  | { type: 'retake' }
  | { type: 'upload' }
  | { type: 'uploadFailed' };

export function initialSelfieState<P>(): SelfieState<P> {
  return { camera: 'off', failure: null, photo: null, source: null, uploading: false };
}

export function selfieReducer<P>(state: SelfieState<P>, event: SelfieEvent<P>): SelfieState<P> {
  // Nothing changes while the photo is being uploaded.
  if (state.uploading && event.type !== 'uploadFailed') return state;
  switch (event.type) {
    case 'start':
      if (state.photo || state.camera === 'starting' || state.camera === 'live') return state;
      return { ...state, camera: 'starting', failure: null };
    case 'started':
      // A stream that arrives after the camera was no longer wanted is stopped by the component.
      return state.camera === 'starting' ? { ...state, camera: 'live' } : state;
    case 'failed':
      return state.camera === 'starting' ? { ...state, camera: 'blocked', failure: event.failure } : state;
    case 'stop':
      return state.camera === 'starting' || state.camera === 'live' ? { ...state, camera: 'off' } : state;
    case 'captured':
      if (state.camera !== 'live') return state;
      return { ...state, camera: 'off', photo: event.photo, source: 'camera' };
    case 'picked':
      // The camera stops; a blocked camera stays blocked (its message stays true).
      return {
        ...state,
        camera: state.camera === 'blocked' ? 'blocked' : 'off',
        photo: event.photo,
        source: 'file',
      };
    case 'retake':
      if (!state.photo) return state;
      return {
        ...state,
        photo: null,
        source: null,
        camera: state.camera === 'blocked' ? 'blocked' : 'starting',
      };
    case 'upload':
      return state.photo ? { ...state, uploading: true } : state;
    case 'uploadFailed':
      return { ...state, uploading: false };
  }
}

/** The stream may run only while the camera is starting or live. */
export function wantsStream(state: SelfieState<unknown>): boolean {
  return state.camera === 'starting' || state.camera === 'live';
}

export type SelfieAction = 'start' | 'capture' | 'pick' | 'submit';

export interface SelfieView {
  /** The live preview is on screen. */
  showVideo: boolean;
  /** The main button. */
  primary: SelfieAction;
  /** The main button waits (camera opening, upload running). */
  busy: boolean;
  /** "重新拍摄" offered (a photo is there). */
  canRetake: boolean;
  /** "重试开启摄像头" offered (blocked for a reason that may pass). */
  canRetryCamera: boolean;
  /** The file input offered as a secondary way (the primary one when the camera is blocked). */
  offerFile: boolean;
}

/** What the step shows for a state. */
export function selfieView(state: SelfieState<unknown>): SelfieView {
  if (state.photo) {
    return {
      showVideo: false,
      primary: 'submit',
      busy: state.uploading,
      canRetake: !state.uploading,
      canRetryCamera: false,
      offerFile: false,
    };
  }
  switch (state.camera) {
    case 'starting':
    case 'live':
      return {
        showVideo: true,
        primary: 'capture',
        busy: state.camera === 'starting',
        canRetake: false,
        canRetryCamera: false,
        offerFile: true,
      };
    case 'blocked':
      return {
        showVideo: false,
        primary: 'pick',
        busy: false,
        canRetake: false,
        canRetryCamera: state.failure !== 'unsupported',
        offerFile: false,
      };
    default:
      return {
        showVideo: false,
        primary: 'start',
        busy: false,
        canRetake: false,
        canRetryCamera: false,
        offerFile: true,
      };
  }
}
