import { PRIVACY_ADDRESS } from './contacts';
import type { LegalDocument } from './terms';

export const privacyEn: LegalDocument = {
  title: 'Privacy Policy',
  updated: '2021/08/30',
  intro: 'Topline Inc. ("we") handles the personal information of the users of Topline (the "Service") as follows.',
  sections: [
    {
      title: '1. Basic policy',
      body: [
        'We comply with the Act on the Protection of Personal Information and other laws, and handle personal information appropriately and only as described here.',
      ],
    },
    {
      title: '2. Information we acquire',
      body: [
        'Account information: name, e-mail address, Google profile picture, company name, position, number of employees and stage.',
        'Plan information: the business plans, actuals and members a user enters.',
        'Payment information: card brand, last four digits and expiry date, handled through our payment processor; we do not store full card numbers.',
        'Usage information: access logs, IP address, browser type and cookies.',
      ],
    },
    {
      title: '3. Security measures',
      body: [
        'We encrypt communications, store passwords only as salted hashes, encrypt connected-service tokens at rest, restrict staff access, and review these measures regularly.',
      ],
    },
    {
      title: '4. Purpose of use',
      body: [
        'Account information: to identify users, provide sign-in, send notices and answer inquiries.',
        'Plan information: to compute and display plans, exports and the dashboard for the user and the members they invite.',
        'Payment information: to charge fees and issue invoices.',
        'Usage information: to keep the Service secure, analyse use and improve the Service.',
      ],
    },
    {
      title: '5. Provision to third parties',
      body: [
        "We do not give personal information to third parties without the person's consent, except where the law permits.",
      ],
    },
    {
      title: '6. Outsourcing',
      body: [
        'We may entrust handling of personal information to contractors such as hosting, e-mail and payment providers. We supervise them through contracts that require appropriate protection.',
      ],
    },
    {
      title: '7. Anonymously processed information',
      body: [
        'When we create or provide anonymously processed information, for example industry benchmarks, we do so in accordance with the law and publish the items concerned.',
      ],
    },
    {
      title: '8. Disclosure, correction and suspension of use',
      body: [
        'When a person asks us to disclose, correct, add to, delete or stop using their personal information, we answer without delay after confirming their identity.',
        `Contact point: ${PRIVACY_ADDRESS}`,
      ],
    },
    {
      title: '9. Cookies and analytics',
      body: [
        'The Service uses cookies and browser storage to keep users signed in and remember the language. We use an analytics service that collects usage data through cookies without identifying individuals; users can refuse cookies in their browser settings.',
      ],
    },
    {
      title: '10. Changes to this policy',
      body: [
        'We may change this policy. The changed policy takes effect when published in the Service unless stated otherwise.',
      ],
    },
  ],
};

export const privacyJa: LegalDocument = {
  title: 'プライバシーポリシー',
  updated: '2021/08/30',
  intro:
    'Topline株式会社（以下「当社」）は、「Topline」（以下「本サービス」）の利用者の個人情報を以下のとおり取り扱います。',
  sections: [
    {
      title: '1. 基本方針',
      body: [
        '当社は、個人情報の保護に関する法律その他の法令を遵守し、本ポリシーに定める範囲で個人情報を適切に取り扱います。',
      ],
    },
    {
      title: '2. 取得する情報',
      body: [
        'アカウント情報：氏名、メールアドレス、Googleのプロフィール画像、会社名、役職、従業員数、ステージ。',
        '計画情報：ユーザーが入力する事業計画、実績、メンバー。',
        '決済情報：カードブランド、下4桁、有効期限（決済代行会社を通じて取り扱い、カード番号全体は保存しません）。',
        '利用情報：アクセスログ、IPアドレス、ブラウザの種類、Cookie。',
      ],
    },
    {
      title: '3. 安全管理措置',
      body: [
        '通信の暗号化、パスワードのソルト付きハッシュでの保存、連携サービスのトークンの暗号化保存、従業者のアクセス制限を行い、定期的に見直します。',
      ],
    },
    {
      title: '4. 利用目的',
      body: [
        'アカウント情報：本人確認、ログイン、通知の送付、お問い合わせへの対応のため。',
        '計画情報：ユーザーおよび招待されたメンバーに計画・出力・ダッシュボードを算出し表示するため。',
        '決済情報：料金の請求および請求書の発行のため。',
        '利用情報：本サービスの安全確保、利用状況の分析および改善のため。',
      ],
    },
    { title: '5. 第三者提供', body: ['法令で認められる場合を除き、本人の同意なく個人情報を第三者に提供しません。'] },
    {
      title: '6. 委託先の監督',
      body: [
        '当社は、ホスティング、メール配信、決済等の委託先に個人情報の取扱いを委託することがあります。その場合、適切な保護を義務付ける契約により委託先を監督します。',
      ],
    },
    {
      title: '7. 匿名加工情報',
      body: ['業界ベンチマーク等のために匿名加工情報を作成・提供する場合は、法令に従い、その項目を公表します。'],
    },
    {
      title: '8. 開示・訂正・利用停止等',
      body: [
        '本人から個人情報の開示、訂正、追加、削除または利用停止の求めがあった場合、本人確認の上、遅滞なく対応します。',
        `窓口：${PRIVACY_ADDRESS}`,
      ],
    },
    {
      title: '9. Cookieと解析サービス',
      body: [
        '本サービスはログイン状態と表示言語の保持のためにCookieおよびブラウザのストレージを使用します。また、個人を特定しない形で利用状況を収集する解析サービスを使用しています。ブラウザの設定によりCookieを拒否できます。',
      ],
    },
    {
      title: '10. 本ポリシーの変更',
      body: [
        '当社は本ポリシーを変更することがあります。変更後のポリシーは、別段の定めがない限り本サービス上に掲載した時点で効力を生じます。',
      ],
    },
  ],
};
