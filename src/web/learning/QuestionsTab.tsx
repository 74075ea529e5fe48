import { Badge, Button, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconCheck, IconHandStop, IconPlus } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type RefObject } from 'react';
import { formatMoment, QUESTION_TITLE_MAX_CHARS, type Question } from '../../contract/learning';
import { messageOf } from '../api/client';
import { useQuestionActions } from '../api/learning';
import classes from './Learning.module.css';
import { LearningTextarea } from './LearningTextarea';
import { useMoment } from './moment';
import { Markup } from './Markup';
import { MomentList } from './MomentList';
import { QuestionFrame } from './QuestionFrame';

/** The answers of a question, the accepted one first marked. */
export function Answers({
  question,
  onAccept,
}: {
  question: Pick<Question, 'answers'>;
  onAccept?: (answerId: string) => void;
}) {
  if (!question.answers.length)
    return (
      <Text size="xs" c="dimmed">
        No answer yet.
      </Text>
    );
  return (
    <Stack gap={6}>
      {question.answers.map((answer) => (
        <div
          key={answer._id}
          className={classes.item}
          style={{ borderColor: answer.accepted ? 'var(--mantine-color-teal-5)' : undefined }}
        >
          <Group gap={6} mb={4}>
            <Badge size="xs" variant="light" color={answer.byStaff ? 'blue' : 'gray'}>
              {answer.byStaff ? 'Staff' : 'Student'}
            </Badge>
            {answer.accepted && (
              <Badge size="xs" color="teal" leftSection={<IconCheck size={10} />}>
                Accepted
              </Badge>
            )}
            {!answer.accepted && onAccept && (
              <Button size="compact-xs" variant="subtle" onClick={() => onAccept(answer._id)}>
                Accept
              </Button>
            )}
          </Group>
          <Markup text={answer.text} />
        </div>
      ))}
    </Stack>
  );
}

/** The lecture's questions by moment: ask at this moment, "me too", read answers (read marks them seen). */
export function QuestionsTab({
  videoId,
  mediaRef,
  questions,
}: {
  videoId: string;
  mediaRef: RefObject<HTMLVideoElement | null>;
  questions: UseQueryResult<Question[]>;
}) {
  const actions = useQuestionActions(videoId);
  const moment = useMoment(mediaRef);
  const [draft, setDraft] = useState<{ t: number; title: string; text: string; resume: boolean } | null>(
    null,
  );
  const [error, setError] = useState<string | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);

  const ask = async () => {
    if (!draft) return;
    try {
      await actions.ask.mutateAsync({ t: draft.t, title: draft.title, text: draft.text });
      setDraft(null);
      if (draft.resume) moment.resume();
    } catch (e) {
      setError(messageOf(e, 'Could not post the question.'));
    }
  };

  const toggle = (question: Question) => {
    const opening = openId !== question._id;
    setOpenId(opening ? question._id : null);
    if (opening && question.mine && question.unread > 0) actions.seen.mutate(question._id);
  };

  return (
    <Stack gap="sm">
      {draft ? (
        <Stack gap={6}>
          <Text size="sm" fw={600}>
            Ask about <span className={classes.moment}>{formatMoment(draft.t)}</span>
          </Text>
          <TextInput
            aria-label="Question title"
            placeholder="What is unclear?"
            maxLength={QUESTION_TITLE_MAX_CHARS}
            value={draft.title}
            onChange={(e) => setDraft({ ...draft, title: e.currentTarget.value })}
            data-autofocus
            autoFocus
          />
          <LearningTextarea
            aria-label="Question details"
            placeholder="Details (optional). ``` for a code block."
            value={draft.text}
            onValue={(text) => setDraft({ ...draft, text })}
            error={error}
          />
          <Group gap="xs">
            <Button size="xs" onClick={() => void ask()} loading={actions.ask.isPending}>
              Post question
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                setDraft(null);
                if (draft.resume) moment.resume();
              }}
            >
              Cancel
            </Button>
          </Group>
        </Stack>
      ) : (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          onClick={() => {
            setError(null);
            setDraft({ t: moment.now(), title: '', text: '', resume: moment.pause() });
          }}
          style={{ alignSelf: 'flex-start' }}
        >
          Ask about this moment
        </Button>
      )}
      <MomentList
        query={questions}
        failure="Could not load the questions."
        empty="No questions on this lecture yet."
        label="Questions on this lecture"
        onSeek={moment.seek}
        below={(question) =>
          openId === question._id && (
            <Stack gap={6} mt="xs">
              <QuestionFrame question={question} />
              {question.text && <Markup text={question.text} />}
              <Answers
                question={question}
                onAccept={
                  question.mine
                    ? (answerId) => actions.accept.mutate({ questionId: question._id, answerId })
                    : undefined
                }
              />
            </Stack>
          )
        }
      >
        {(question) => (
          <>
            <UnstyledButton
              style={{ flex: 1, minWidth: 0 }}
              onClick={() => toggle(question)}
              aria-expanded={openId === question._id}
            >
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {question.title}
              </Text>
              <Group gap={6} mt={2}>
                <Text size="xs" c="dimmed">
                  {question.answers.length} {question.answers.length === 1 ? 'answer' : 'answers'}
                </Text>
                {question.mine && (
                  <Badge size="xs" variant="outline">
                    yours
                  </Badge>
                )}
                {question.unread > 0 && (
                  <Badge size="xs" color="red">
                    {question.unread} new
                  </Badge>
                )}
                {question.status !== 'open' && (
                  <Badge size="xs" color="gray">
                    {question.status}
                  </Badge>
                )}
              </Group>
            </UnstyledButton>
            <Button
              size="compact-xs"
              variant={question.meTooMine ? 'filled' : 'default'}
              leftSection={<IconHandStop size={12} />}
              disabled={question.mine || question.meTooMine || question.status !== 'open'}
              onClick={() => actions.meToo.mutate(question._id)}
              aria-label={`Me too (${question.meToo})`}
            >
              {question.meToo}
            </Button>
          </>
        )}
      </MomentList>
    </Stack>
  );
}
