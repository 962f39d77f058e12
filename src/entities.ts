// Every entity of the service, for the data source (the app's, the admin command line's and the migration tools').
// The composition root lists them, as app.module.ts lists the modules: src/database knows no resource module.
import { Attachment } from './attachment/entities/attachment.entity.js';
import { AttachmentData } from './attachment/entities/attachment-data.entity.js';
import { AuditLogEntry } from './audit/entities/audit-log-entry.entity.js';
import { ChangeMark } from './audit/entities/change-mark.entity.js';
import { ApiKey } from './auth/entities/api-key.entity.js';
import { LoginFailure } from './auth/entities/login-failure.entity.js';
import { LoginToken } from './auth/entities/login-token.entity.js';
import { Bug } from './bug/entities/bug.entity.js';
import { BugActivity } from './bug/entities/bug-activity.entity.js';
import { BugAlias } from './bug/entities/bug-alias.entity.js';
import { BugCc } from './bug/entities/bug-cc.entity.js';
import { BugCustomValue } from './bug/entities/bug-custom-value.entity.js';
import { BugDependency } from './bug/entities/bug-dependency.entity.js';
import { BugRegression } from './bug/entities/bug-regression.entity.js';
import { BugDuplicate } from './bug/entities/bug-duplicate.entity.js';
import { BugGroup } from './bug/entities/bug-group.entity.js';
import { BugKeyword } from './bug/entities/bug-keyword.entity.js';
import { BugLastVisit } from './bug/entities/bug-last-visit.entity.js';
import { BugSeeAlso } from './bug/entities/bug-see-also.entity.js';
import { BugTag } from './bug/entities/bug-tag.entity.js';
import { Tag } from './bug/entities/tag.entity.js';
import { Comment } from './comment/entities/comment.entity.js';
import { CommentTag } from './comment/entities/comment-tag.entity.js';
import { CommentTagWeight } from './comment/entities/comment-tag-weight.entity.js';
import { FieldDefinition } from './field/entities/field-definition.entity.js';
import { FieldValue } from './field/entities/field-value.entity.js';
import { Keyword } from './field/entities/keyword.entity.js';
import { StatusTransition } from './field/entities/status-transition.entity.js';
import { Flag } from './flag/entities/flag.entity.js';
import { FlagExclusion } from './flag/entities/flag-exclusion.entity.js';
import { FlagInclusion } from './flag/entities/flag-inclusion.entity.js';
import { FlagType } from './flag/entities/flag-type.entity.js';
import { Group } from './group/entities/group.entity.js';
import { GroupGrant } from './group/entities/group-grant.entity.js';
import { Membership } from './group/entities/membership.entity.js';
import { QueuedMail } from './mail/entities/queued-mail.entity.js';
import { Parameter } from './params/entities/parameter.entity.js';
import { Classification } from './product/entities/classification.entity.js';
import { Component } from './product/entities/component.entity.js';
import { ComponentCc } from './product/entities/component-cc.entity.js';
import { GroupControl } from './product/entities/group-control.entity.js';
import { Milestone } from './product/entities/milestone.entity.js';
import { Product } from './product/entities/product.entity.js';
import { Version } from './product/entities/version.entity.js';
import { SavedReport } from './user/entities/saved-report.entity.js';
import { SavedSearch } from './user/entities/saved-search.entity.js';
import { User } from './user/entities/user.entity.js';
import { RateLimitBucket } from './ratelimit/entities/rate-limit-bucket.entity.js';
import { BugChange } from './change-feed/entities/bug-change.entity.js';
import { Webhook } from './webhook/entities/webhook.entity.js';
import { WebhookDelivery } from './webhook/entities/webhook-delivery.entity.js';
import { WebhookState } from './webhook/entities/webhook-state.entity.js';

export const ENTITIES = [
  Attachment, AttachmentData, AuditLogEntry, ChangeMark, ApiKey, LoginFailure, LoginToken, Bug, BugActivity, BugAlias, BugCc,
  BugCustomValue, BugDependency, BugRegression, BugDuplicate, BugGroup, BugKeyword, BugLastVisit, BugSeeAlso, BugTag, Tag, Comment,
  CommentTag, CommentTagWeight, FieldDefinition, FieldValue, Keyword, StatusTransition, Flag, FlagExclusion,
  FlagInclusion, FlagType, Group, GroupGrant, Membership, QueuedMail, Parameter, Classification, Component, ComponentCc,
  GroupControl, Milestone, Product, Version, SavedReport, SavedSearch, User, RateLimitBucket, Webhook, WebhookState, WebhookDelivery, BugChange,
];
