/** An uploaded picture of the front (portrait side) of a resident identity card. */
export interface IdCardImage {
  body: Buffer;
  contentType: string;
}

/**
 * What the card says, as read. Values are a proposal for the person to confirm, never a
 * verification: a name or number may be misread, and nothing says the card is genuine.
 */
export interface IdCardOcrResult {
  /** The name as read (Chinese characters, · allowed), or null when none was found. */
  name: string | null;
  /** 18 characters (X upper-case) shaped like a resident identity number, or null. */
  idNumber: string | null;
  /** `local-ocr`: read on this server; `provider`: a cloud OCR service read it. */
  method: 'local-ocr' | 'provider';
  /** `unavailable`: the cloud service failed (network, quota, keys); nothing was read. */
  outcome: 'read' | 'unavailable';
  /** Engine measurements for the logs (no personal data): timings, confidence. */
  details: Record<string, number | string>;
}

/** Reading the name and number off an ID-card front. */
export interface IdCardOcrProvider {
  readonly name: string;
  /** Throws `ImageDecodeError` for bytes that are no image; never throws for a service outage. */
  read(image: IdCardImage): Promise<IdCardOcrResult>;
  /** Stops engines and workers (server shutdown). */
  close?(): Promise<void>;
}
