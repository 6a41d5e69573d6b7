/**
 * Object storage for uploads (issue 5; spec §7 "Upload policy"). The browser uploads directly to
 * `host` with a signed POST policy (Aliyun OSS format); the server reads objects back for OCR and face
 * checks. Local default: the API itself is the host and stores under DATA_DIR (same policy checks).
 */
export interface UploadPolicy {
  /** OSSAccessKeyId form field. */
  accessKeyId: string;
  /** Key prefix the upload must use (ends with '/'). */
  dir: string;
  /** base64 JSON policy: expiration, content-length-range, starts-with $key dir, content types. */
  policy: string;
  /** base64 HMAC-SHA1 of `policy` with the access key secret (OSS v1 signature). */
  signature: string;
  /** Where to POST the multipart form; the object's URL is `${host}/${key}`. */
  host: string;
  /** Unix seconds after which the policy is refused. */
  expire: number;
}

export interface PolicyRequest {
  dir: string;
  maxBytes: number;
  contentTypes: readonly string[];
  expiresInSeconds: number;
}

export interface StoredObject {
  body: Buffer;
  contentType: string;
}

export interface StorageProvider {
  readonly name: 'local' | 'aliyun-oss';
  createPolicy(req: PolicyRequest): UploadPolicy;
  /** The object's bytes (server-side processing), or null when absent. */
  getObject(key: string): Promise<StoredObject | null>;
  /** The key of an object URL this store issued (`${host}/${key}`), or null for a foreign URL. */
  keyFromUrl(url: string): string | null;
  /** Releases what the store holds (the local store's temporary directory in tests). */
  close?(): Promise<void>;
}
