import { Badge, Button, Card, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { formatMoment, type QueueQuestion, type QuestionStatus } from '../../../contract/learning';
import { messageOf } from '../../api/client';
import { useQuestionQueue, useStaffActions } from '../../api/learning';
import { LoadedItems } from '../../learning/LoadedItems';
import { Answers } from '../../learning/QuestionsTab';
import { Markup } from '../../learning/Markup';
import { QuestionFrame } from '../../learning/QuestionFrame';
import { TextBox } from '../../ui/TextBox';

function QueueItem({ question }: { question: QueueQuestion }) {
  const actions = useStaffActions();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const answer = async () => {
    try {
      await actions.answer.mutateAsync({ questionId: question._id, text });
      setText('');
      setError(null);
    } catch (e) {
      setError(messageOf(e, 'Could not post the answer.'));
    }
  };
  return (
    <Card withBorder radius="md" padding="sm">
      <Group justify="space-between" align="flex-start" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {question.title}
          </Text>
          <Text size="xs" c="dimmed">
            {question.courseName ?? 'No course'} · {question.videoTitle} at {formatMoment(question.t)} ·{' '}
            {new Date(question.createdAt).toLocaleString()}
          </Text>
        </div>
        <Group gap={4} wrap="nowrap">
          <Badge variant="light">{question.meToo} me too</Badge>
          <Badge variant="light" color={question.answers.length ? 'teal' : 'orange'}>
            {question.answers.length ? `${question.answers.length} answered` : 'unanswered'}
          </Badge>
        </Group>
      </Group>
      {question.frameUrl && (
        <div style={{ marginTop: 8 }}>
          <QuestionFrame question={question} />
        </div>
      )}
      {question.text && (
        <div style={{ marginTop: 8 }}>
          <Markup text={question.text} />
        </div>
      )}
      <Stack gap={6} mt="sm">
        <Answers
          question={question}
          onAccept={(answerId) => actions.accept.mutate({ questionId: question._id, answerId })}
        />
        {question.status === 'open' && (
          <>
            <TextBox
              aria-label={`Answer to ${question.title}`}
              placeholder="Answer (``` for a code block)"
              value={text}
              onValue={setText}
              error={error}
            />
          </>
        )}
        <Group gap="xs">
          {question.status === 'open' && (
            <Button
              size="xs"
              onClick={() => void answer()}
              loading={actions.answer.isPending}
              disabled={!text.trim()}
            >
              Answer
            </Button>
          )}
          {(['open', 'closed', 'hidden'] as const)
            .filter((s) => s !== question.status)
            .map((status) => (
              <Button
                key={status}
                size="xs"
                variant="default"
                onClick={() => actions.status.mutate({ questionId: question._id, status })}
              >
                {status === 'open' ? 'Reopen' : status === 'closed' ? 'Close' : 'Hide'}
              </Button>
            ))}
        </Group>
      </Stack>
    </Card>
  );
}

/** /adminquestions: the staff queue of students' questions, unanswered and most "me too" first. */
export default function QuestionQueuePage() {
  const [status, setStatus] = useState<QuestionStatus | 'all'>('open');
  const queue = useQuestionQueue(status);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h3">
          Questions
        </Title>
        <SegmentedControl
          size="xs"
          value={status}
          onChange={(v) => setStatus(v as QuestionStatus | 'all')}
          data={[
            { value: 'open', label: 'Open' },
            { value: 'closed', label: 'Closed' },
            { value: 'hidden', label: 'Hidden' },
            { value: 'all', label: 'All' },
          ]}
        />
      </Group>
      <LoadedItems
        query={queue}
        placeholderHeight={90}
        failure="Could not load the questions."
        isEmpty={(list) => list.length === 0}
        empty="No questions here."
      >
        {(list) => list.map((question) => <QueueItem key={question._id} question={question} />)}
      </LoadedItems>
    </Stack>
  );
}
