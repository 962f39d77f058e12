import { presentFlag } from '../bug/bug.presenter.js';
import { toApiDateTime } from '../common/time/datetime.js';
import type { Attachment } from './entities/attachment.entity.js';

/** A flag of an attachment with its people named: the shape the bug presenter's Flag object takes. */
export type AttachmentFlag = Parameters<typeof presentFlag>[0] & { attachmentId: number; setterId: number; requesteeId: number | null };

/** The Attachment object of service-spec.md; `data` (base64, no line breaks) only when it was read. */
export function presentAttachment(
  attachment: Attachment,
  view: { creator: string; flags: readonly AttachmentFlag[]; data?: Buffer; email: (address: string) => string },
): Record<string, unknown> {
  return {
    ...(view.data ? { data: view.data.toString('base64') } : {}),
    size: attachment.size,
    creation_time: toApiDateTime(attachment.creationTime),
    last_change_time: toApiDateTime(attachment.lastChangeTime),
    id: attachment.id,
    bug_id: attachment.bugId,
    file_name: attachment.fileName,
    summary: attachment.summary,
    content_type: attachment.contentType,
    is_private: attachment.isPrivate,
    is_obsolete: attachment.isObsolete,
    is_patch: attachment.isPatch,
    creator: view.email(view.creator),
    flags: view.flags.map((flag) => presentFlag(flag, view.email)),
  };
}
